// Text shared by the /dev route descriptions.
import type { Scope } from '../../http/auth.js';

/** The credential rule of every /dev route (docs/backend-developers.md, "Rules"), with the route's scope. */
export function keyOnly(scope: Scope): string {
  return `Developer key only, with the scope \`${scope}\` (else 403 \`insufficient_scope\`, \`error.required_scope\` naming it).
A player token or portal session is 403 \`forbidden\` (a portal cookie without \`X-Requested-With\` is 403 \`csrf_rejected\`);
no credential, or an unknown or revoked key, is 401 \`unauthenticated\`.`;
}

/** Who the key may act for. */
export const PLAYERS_OF_THE_GAME = `The key acts only for players of its own game: active players who have started a play session of it.
Anyone else — a player who never played the game, a suspended player, an unknown id — is 404 \`not_found\`, one answer for all.
The id must be an integer from 1 to 2147483647 (else 422 \`validation_failed\`).`;
