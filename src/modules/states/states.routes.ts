// The save-state routes: list, read, save and delete a player's states of a game (PT/DK).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Credential } from '../../http/auth.js';
import { registerJsonParser } from '../../http/content.js';
import { Ok, OkMeta, ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { deepJsonSerializerCompiler } from './json-text.js';
import {
  DeleteStateResult,
  GameParams,
  PlayerQuery,
  PutStateBody,
  PutStateResult,
  STATE_BODY_LIMIT,
  SlotParams,
  State,
  StateSummary,
  StatesMeta,
} from './states.schemas.js';
import { STATE_JSON_PARSING, deleteState, getState, listStates, putState } from './states.service.js';

const TAGS = ['save states'];

const WHO = `Credentials: a player token or portal session acts for its own player (a \`player_id\` naming anyone else is 403 \`forbidden\`).
A developer key acts for a player of its own game — one who has started a play session of it — named by \`player_id\`
(required, else 422; another game's key is 403 \`forbidden\`; a player who never played it, or is unknown or inactive, is 404 \`not_found\`).
Unknown, draft and retired games are 404 \`not_found\`; a slot outside 0..save_slots − 1 is 422 \`validation_failed\`.`;

/** The credential of a PT/DK route (the auth hook has already refused calls without one). */
function credentialOf(request: FastifyRequest): Credential {
  if (!request.credential) throw new AppError('unauthenticated', 'This route needs a credential');
  return request.credential;
}

export async function statesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // A state is data, never merged into an object: keys named __proto__ or constructor are kept as data here.
  registerJsonParser(app, STATE_JSON_PARSING);

  app.get(
    '/v1/games/:slug/states',
    {
      schema: {
        tags: TAGS,
        operationId: 'listStates',
        summary: "List a player's save states of a game",
        description: `The stored states of the player, by slot, without payloads; empty slots are not listed. \`meta.save_slots\` is the game's number of slots.\n\n${WHO}\n\nA developer key needs the scope \`states:read\`.`,
        params: GameParams,
        querystring: PlayerQuery,
        response: { 200: OkMeta(Type.Object({ states: Type.Array(StateSummary) }), StatesMeta) },
      },
      config: { auth: 'player_or_key', scope: 'states:read', errors: ['not_found'] },
    },
    async (request) => {
      const { states, saveSlots } = await listStates(app.ctx, credentialOf(request), {
        gameSlug: request.params.slug,
        playerId: request.query.player_id,
      });
      return ok({ states }, { save_slots: saveSlots });
    },
  );

  app.get(
    '/v1/games/:slug/states/:slot',
    {
      schema: {
        tags: TAGS,
        operationId: 'getState',
        summary: 'Read a save state',
        description: `The state in the slot, payload included exactly as saved (at any nesting depth); 404 \`not_found\` when the slot is empty.\n\n${WHO}\n\nA developer key needs the scope \`states:read\`.`,
        params: SlotParams,
        querystring: PlayerQuery,
        response: { 200: Ok(Type.Object({ state: State })) },
      },
      // the stored JSON text goes out as it is (JsonText), at any depth
      serializerCompiler: deepJsonSerializerCompiler,
      config: { auth: 'player_or_key', scope: 'states:read', errors: ['not_found'] },
    },
    async (request) => {
      const { slug, slot } = request.params;
      return ok({
        state: await getState(app.ctx, credentialOf(request), {
          gameSlug: slug,
          slot,
          playerId: request.query.player_id,
        }),
      });
    },
  );

  app.put(
    '/v1/games/:slug/states/:slot',
    {
      schema: {
        tags: TAGS,
        operationId: 'putState',
        summary: 'Save a state',
        description: `Saves any JSON value into the slot: 201 with \`created: true\` when the slot was empty, 200 otherwise.
The first save of a slot gets version 1 and every save one more. Deleting a state does not reset the count:
the next save continues from the last version, so a version a client holds is never reused for other content.

\`expected_version\` makes the save conditional: n saves only over version n, 0 only into an empty slot.
Otherwise the answer is 409 \`version_conflict\` with \`error.current_version\` (0 for an empty slot) and nothing is written.
Without \`expected_version\` the save overwrites whatever is stored.

\`label\`: absent keeps the stored label (none on a first save); null clears it; up to 80 characters.

\`size_bytes\` is the UTF-8 length of the state's JSON text (JSON.stringify: no whitespace, minimal escapes).
262,144 bytes are allowed; more is 413 \`state_too_large\` (with \`error.size_bytes\` and \`error.max_bytes\`), whatever
the size on the wire. The request body may be up to 2 MiB, so an allowed state fits in any encoding (escapes,
whitespace); a larger body is 413 \`state_too_large\` too, unmeasured. A number beyond the range of a double
(such as 1e400) cannot be stored exactly and is 422.

${WHO}

A developer key needs the scope \`states:write\` and sends \`player_id\` in the body.`,
        params: SlotParams,
        body: PutStateBody,
        response: { 200: Ok(PutStateResult), 201: Ok(PutStateResult) },
      },
      bodyLimit: STATE_BODY_LIMIT,
      config: {
        auth: 'player_or_key',
        scope: 'states:write',
        tooLargeCode: 'state_too_large',
        errors: ['not_found', 'version_conflict', 'state_too_large'],
      },
    },
    async (request, reply) => {
      const { slug, slot } = request.params;
      const body = request.body;
      const result = await putState(app.ctx, credentialOf(request), {
        gameSlug: slug,
        slot,
        playerId: body.player_id,
        state: body.state,
        label: body.label,
        expectedVersion: body.expected_version,
      });
      reply.code(result.created ? 201 : 200);
      return ok(result);
    },
  );

  app.delete(
    '/v1/games/:slug/states/:slot',
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteState',
        summary: 'Delete a save state',
        description: `Empties the slot: \`{deleted: true}\`, or \`{deleted: false}\` when the slot was already empty.
The slot keeps its version count: the next save gets the following version (with \`created: true\`).

${WHO}

A developer key needs the scope \`states:write\`.`,
        params: SlotParams,
        querystring: PlayerQuery,
        response: { 200: Ok(DeleteStateResult) },
      },
      config: { auth: 'player_or_key', scope: 'states:write', errors: ['not_found'] },
    },
    async (request) => {
      const { slug, slot } = request.params;
      return ok(
        await deleteState(app.ctx, credentialOf(request), { gameSlug: slug, slot, playerId: request.query.player_id }),
      );
    },
  );
}
