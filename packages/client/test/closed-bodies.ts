// Type test, checked by `npm run typecheck` (packages/client/tsconfig.json): request bodies are closed, so a field the
// API refuses (422) does not compile. Each `@ts-expect-error` fails the check if the line below it compiles.
import { createClient } from '@gameplatform/client';

const api = createClient({ baseUrl: 'https://play.example.com', token: 'agk_x' });
const path = { slug: 'orbit-dash', id: 42, slot: 0 };

export async function closedBodies(): Promise<void> {
  // The dev save route names the player in its path: player_id in the body is refused.
  await api.PUT('/v1/dev/games/{slug}/players/{id}/states/{slot}', {
    params: { path },
    // @ts-expect-error player_id is not a field of this body
    body: { state: { level: 3 }, player_id: 42 },
  });
  await api.POST('/v1/dev/games/{slug}/players/{id}/scores', {
    params: { path: { slug: 'orbit-dash', id: 42 } },
    // @ts-expect-error a misspelt field
    body: { score: 10, bord: 'main' },
  });
  await api.POST('/v1/play/heartbeat', {
    // @ts-expect-error an unknown field
    body: { session: 'ps_x', seconds: 30 },
  });

  // What the routes take compiles, fetch options beside them included.
  await api.PUT('/v1/dev/games/{slug}/players/{id}/states/{slot}', {
    params: { path },
    body: { state: { level: 3 }, label: 'Level 3', expected_version: 2 },
  });
  await api.PUT('/v1/games/{slug}/states/{slot}', {
    params: { path: { slug: 'orbit-dash', slot: 0 } },
    body: { state: null, player_id: 42 },
    signal: AbortSignal.timeout(5000),
  });
  const { data } = await api.POST('/v1/dev/games/{slug}/players/{id}/scores', {
    params: { path: { slug: 'orbit-dash', id: 42 } },
    body: { score: 10, board: 'main', meta: { level: 3 } },
  });
  const rank: number | undefined = data?.data.rank.rank;
  void rank;
  await api.GET('/v1/me');
}
