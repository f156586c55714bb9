// The save-state routes under /dev: the general state routes with the player in the path (docs/backend-developers.md: "equivalent to the
// general save-state routes called with a developer key and player_id").
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { keyOf } from '../../http/auth.js';
import { registerJsonParser } from '../../http/content.js';
import { Ok, OkMeta, ok } from '../../http/envelope.js';
import { deepJsonSerializerCompiler } from '../states/json-text.js';
import { STATE_BODY_LIMIT } from '../states/states.schemas.js';
import { STATE_JSON_PARSING, listStates, putState, type StateListItem } from '../states/states.service.js';
import { keyOnly, PLAYERS_OF_THE_GAME } from './dev-docs.js';
import {
  DevPutStateBody,
  DevPutStateResult,
  DevStateItem,
  DevStatesMeta,
  GamePlayerParams,
  GamePlayerSlotParams,
  ListStatesQuery,
} from './dev.schemas.js';

const TAGS = ['game backends'];

const GAME_RULES = `Unknown, draft and retired games are 404 \`not_found\`; a slug of another game than the key's is 403 \`forbidden\`.`;

/**
 * Exactly the documented fields: this route is written by deepJsonSerializerCompiler (payloads may nest deeper than
 * the schema serialiser can go), which writes whatever it is given instead of keeping to the schema.
 */
function listItem(s: StateListItem): DevStateItem {
  return {
    slot: s.slot,
    label: s.label,
    version: s.version,
    size_bytes: s.size_bytes,
    ...('state' in s ? { state: s.state } : {}),
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export async function devStatesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // As on the general state routes: keys named __proto__ or constructor inside a state are data.
  registerJsonParser(app, STATE_JSON_PARSING);

  app.get(
    '/v1/dev/games/:slug/players/:id/states',
    {
      schema: {
        tags: TAGS,
        operationId: 'devListStates',
        summary: "A player's save states of the game",
        description: `The player's stored states of the game, by slot (empty slots are not listed), as GET /games/{slug}/states?player_id=…
gives them; with \`include_state=true\` each item also carries its payload \`state\`, exactly as saved (any nesting depth),
so a backend reads every slot in one call. \`meta.save_slots\` is the game's number of slots.

${GAME_RULES}

${PLAYERS_OF_THE_GAME}

${keyOnly('states:read')}`,
        params: GamePlayerParams,
        querystring: ListStatesQuery,
        response: {
          200: OkMeta(
            Type.Object({ states: Type.Array(DevStateItem, { description: 'stored states by slot' }) }),
            DevStatesMeta,
          ),
        },
      },
      serializerCompiler: deepJsonSerializerCompiler,
      config: { auth: 'key', scope: 'states:read', errors: ['not_found'] },
    },
    async (request) => {
      const { slug, id } = request.params;
      const { states, saveSlots } = await listStates(app.ctx, keyOf(request), {
        gameSlug: slug,
        playerId: id,
        includeState: request.query.include_state,
      });
      return ok({ states: states.map(listItem) }, { save_slots: saveSlots });
    },
  );

  app.put(
    '/v1/dev/games/:slug/players/:id/states/:slot',
    {
      schema: {
        tags: TAGS,
        operationId: 'devPutState',
        summary: 'Save a state for a player',
        description: `PUT /games/{slug}/states/{slot} for the player in the path: the same body without \`player_id\` (sending it is 422),
the same rules and answers. 201 with \`created: true\` when the slot was empty, 200 otherwise; each save raises the version
by one (the first save of a slot gets 1). \`expected_version\` n saves only over version n, 0 only into an empty slot,
else 409 \`version_conflict\` with \`error.current_version\`. \`label\`: absent keeps the stored one, null clears it.
A state over 262,144 bytes of JSON text is 413 \`state_too_large\`; a slot outside 0..save_slots − 1 is 422.

${GAME_RULES}

${PLAYERS_OF_THE_GAME}

${keyOnly('states:write')}`,
        params: GamePlayerSlotParams,
        body: DevPutStateBody,
        response: { 200: Ok(DevPutStateResult), 201: Ok(DevPutStateResult) },
      },
      bodyLimit: STATE_BODY_LIMIT,
      config: {
        auth: 'key',
        scope: 'states:write',
        tooLargeCode: 'state_too_large',
        errors: ['not_found', 'version_conflict', 'state_too_large'],
      },
    },
    async (request, reply) => {
      const { slug, id, slot } = request.params;
      const { state, label, expected_version } = request.body;
      const result = await putState(app.ctx, keyOf(request), {
        gameSlug: slug,
        slot,
        playerId: id,
        state,
        label,
        expectedVersion: expected_version,
      });
      reply.code(result.created ? 201 : 200);
      return ok(result);
    },
  );
}
