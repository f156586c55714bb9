// The API objects the portal reads: the typed client's shapes, generated from the service's OpenAPI document.
import type { components, operations } from '../../packages/client/src/schema.js';

type Ok<R> = R extends { 200: { content: { 'application/json': infer J } } } ? J : never;

export type Game = components['schemas']['Game'];
export type GamesMeta = Ok<operations['listGames']['responses']>['meta'];
export type LeaderboardMeta = Ok<operations['getLeaderboard']['responses']>['meta'];
export type Profile = Ok<operations['getPlayer']['responses']>['data'];
