// /v1/studio/games/{slug}/builds…: the numbered builds, release, rollback and preview. A developer key of the game with
// builds:write lists builds; with builds:release it releases and rolls back (continuous deployment from CI).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ok, ok } from '../../http/envelope.js';
import { getBuild, listBuilds } from '../games/builds.service.js';
import { startPreview } from '../games/preview.service.js';
import { releaseBuild, rollbackBuild } from '../games/release.service.js';
import { gameAccess, memberOf } from './access.js';
import { BuildParams, BuildSchema, PreviewSchema, ReleaseSchema } from './builds.schemas.js';
import { GameParams } from './studios.schemas.js';

const tags = ['builds'];

export async function buildsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  app.get(
    '/v1/studio/games/:slug/builds',
    {
      config: { auth: 'player_or_key', scope: 'builds:write', errors: ['not_found'] },
      schema: {
        tags,
        operationId: 'listBuilds',
        summary: "The game's builds",
        description: 'Newest first, pruned ones included (their files are gone). `live` marks the build players get.',
        params: GameParams,
        response: { 200: Ok(Type.Object({ builds: Type.Array(BuildSchema) })) },
      },
    },
    async (request) => {
      const { game } = await gameAccess(ctx, request.credential, request.params.slug, { scope: 'builds:write' });
      return ok({ builds: await listBuilds(ctx, game) });
    },
  );

  app.get(
    '/v1/studio/games/:slug/builds/:number',
    {
      config: { auth: 'player_or_key', scope: 'builds:write', errors: ['not_found'] },
      schema: {
        tags,
        operationId: 'getBuild',
        summary: 'One build',
        params: BuildParams,
        response: { 200: Ok(BuildSchema) },
      },
    },
    async (request) => {
      const { game } = await gameAccess(ctx, request.credential, request.params.slug, { scope: 'builds:write' });
      return ok(await getBuild(ctx, game, request.params.number));
    },
  );

  app.post(
    '/v1/studio/games/:slug/builds/:number/release',
    {
      config: {
        auth: 'player_or_key',
        scope: 'builds:release',
        errors: ['not_found', 'build_pruned', 'studio_pending'],
      },
      schema: {
        tags,
        operationId: 'releaseBuild',
        summary: 'Release a build (or roll back to it)',
        description:
          "Players get this build from now on: one write switches the game to it, so a request sees the old build or the new one, never half of each. Pages loaded before keep their build's files. " +
          'Any kept build can be released, an earlier one included: that is a rollback to it. Releasing the live build changes nothing (`changed: false`). ' +
          "A game's first release also fills the listing fields its studio has not set from the build's game.json. The game's status does not change (a draft game stays hidden).",
        params: BuildParams,
        response: { 200: Ok(ReleaseSchema) },
      },
    },
    async (request) => {
      const { game } = await gameAccess(ctx, request.credential, request.params.slug, {
        scope: 'builds:release',
        write: true,
      });
      return ok(await releaseBuild(ctx, game, request.params.number));
    },
  );

  app.post(
    '/v1/studio/games/:slug/rollback',
    {
      config: {
        auth: 'player_or_key',
        scope: 'builds:release',
        errors: ['not_found', 'build_pruned', 'no_previous_build', 'studio_pending'],
      },
      schema: {
        tags,
        operationId: 'rollback',
        summary: 'Roll back to the build live before',
        description:
          'Releases the build that was live before the current one, in one call (a second rollback comes back). 409 no_previous_build when there was none: release a build by its number.',
        params: GameParams,
        response: { 200: Ok(ReleaseSchema) },
      },
    },
    async (request) => {
      const { game } = await gameAccess(ctx, request.credential, request.params.slug, {
        scope: 'builds:release',
        write: true,
      });
      return ok(await rollbackBuild(ctx, game));
    },
  );

  app.post(
    '/v1/studio/games/:slug/builds/:number/preview',
    {
      config: { auth: 'player', errors: ['not_found', 'build_pruned'] },
      schema: {
        tags,
        operationId: 'previewBuild',
        summary: 'Preview a build',
        description:
          "A preview session of the build for the caller, a member of the game's studio (or an operator): its `entry_url` loads the build in the " +
          'play shell (the portal page preview_url does this). Not metered and not counted as a play, whatever the status of the game; ' +
          "the game's saves and scores go to the preview's own store (/studio/games/{slug}/preview/…), apart from the live ones. " +
          'It lasts 12 hours, or until the member leaves the studio or the build is pruned.',
        params: BuildParams,
        response: { 201: Ok(PreviewSchema) },
      },
    },
    async (request, reply) => {
      const player = memberOf(request.credential);
      const { game } = await gameAccess(ctx, request.credential, request.params.slug);
      return reply.code(201).send(ok(await startPreview(ctx, game, request.params.number, player.playerId)));
    },
  );
}
