// A game's backend with a developer key (agk_…, bound to its game): read a player's save states, submit a score on
// the player's behalf, read the game's statistics. Run it with
//   GAMEPLATFORM_URL=https://play.example.com GAMEPLATFORM_KEY=agk_… GAME=orbit-dash PLAYER_ID=42 npx tsx example.ts
// The key needs the scopes states:read, scores:write and stats:read.
import { randomUUID } from 'node:crypto';
import { createClient, isApiError, unwrap } from '@gameplatform/client';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
};

const api = createClient({ baseUrl: env('GAMEPLATFORM_URL'), token: env('GAMEPLATFORM_KEY') });
const slug = env('GAME');
const id = Number(env('PLAYER_ID'));

// 1. The player's save states in this game, with their payloads.
const states = await unwrap(
  api.GET('/v1/dev/games/{slug}/players/{id}/states', {
    params: { path: { slug, id }, query: { include_state: true } },
  }),
);
for (const state of states.data.states)
  console.log(`slot ${state.slot} (${state.label ?? 'no label'}): version ${state.version}`);
console.log(`${states.data.states.length} of ${states.meta.save_slots} slots used`);

// 2. A score on the player's behalf; the Idempotency-Key makes a retry safe (the same answer, nothing stored twice).
const submitted = await api.POST('/v1/dev/games/{slug}/players/{id}/scores', {
  params: { path: { slug, id }, header: { 'idempotency-key': randomUUID() } },
  body: { score: 4200, meta: { level: 3 } },
});
if (submitted.error) {
  // typed per code: a 429 carries retry_after, a 403 insufficient_scope names the scope it lacks
  const error = submitted.error.error;
  if (error.code === 'rate_limited') console.log(`slow down: retry in ${error.retry_after} s`);
  else if (error.code === 'insufficient_scope') console.log(`the key lacks ${error.required_scope}`);
  else console.log(`refused: ${error.code} ${error.message}`);
} else {
  const result = submitted.data.data;
  console.log(
    `score ${result.score} on ${result.board}: rank ${result.rank.rank}${result.personal_best ? ', a personal best' : ''}`,
  );
}

// 3. The game's statistics.
try {
  const stats = await unwrap(api.GET('/v1/dev/games/{slug}/stats', { params: { path: { slug } } }));
  console.log(JSON.stringify({ stats: stats.data }));
} catch (e) {
  if (isApiError(e, 'insufficient_scope')) console.log(`the key lacks ${e.error.required_scope}`);
  else throw e;
}
