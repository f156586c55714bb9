// What register, login and POST /auth/guest answer: the player (own view), the new token, and today's entitlement.
import type { AppContext } from '../../context.js';
import type { PlayerRow } from '../../db/schema.js';
import { formatIso } from '../../time.js';
import { getEntitlement } from '../play/entitlement.js';
import type { ClaimedGuest } from './accounts.schemas.js';
import { ownPlayerView } from './player-views.js';
import type { IssuedToken } from './tokens.service.js';

export async function authResult(ctx: AppContext, player: PlayerRow, issued: IssuedToken) {
  return {
    player: ownPlayerView(ctx.config, player),
    token: issued.token,
    token_expires_at: formatIso(issued.expiresAt),
    entitlement: await getEntitlement(ctx, player),
    revoked_token: issued.revoked,
  };
}

export type AuthResult = Awaited<ReturnType<typeof authResult>> & {
  deletion_canceled?: true;
  claimed_guest?: ClaimedGuest;
  expiresAt: number;
};
