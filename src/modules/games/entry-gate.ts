// Who may load a game's entry file (docs/api.md, "Game files on their own origin"): a player with an active play
// session of the game and time left, or a studio member previewing that very build with a `pv_` token.
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { sha256 } from '../../lib/secrets.js';
import { playsWithoutLimit } from '../accounts/membership.js';
import { getEntitlement } from '../play/entitlement.js';
import { findEntrySession } from './games.repository.js';
import { findPreviewSession } from './preview.repository.js';

export const PREVIEW_TOKEN_PREFIX = 'pv_' as const;

const notAllowed = (message: string) => new AppError('play_not_allowed', message);

/** The entry file needs `?session=` of an active session of this game whose player may still play. */
export async function checkPlayEntry(
  ctx: AppContext,
  game: { id: number; requires_premium: number },
  session: string | undefined,
): Promise<void> {
  if (!session?.startsWith('ps_') || session.length > 256) {
    throw notAllowed('The game starts from the play shell: its entry file needs ?session= with an active play session');
  }
  const now = ctx.clock.now();
  const player = await findEntrySession(ctx.db, sha256(session), game.id, now - ctx.config.session_idle_timeout * 1000);
  if (!player) throw notAllowed('This play session is not an active session of this game; start a new one');
  if (game.requires_premium === 1 && !playsWithoutLimit(player, now))
    throw notAllowed('This game is for Unlimited members');
  if ((await getEntitlement(ctx, player)).limit_reached) throw notAllowed('No play time is left today');
}

export function isPreviewToken(session: string | undefined): session is string {
  return session?.startsWith(PREVIEW_TOKEN_PREFIX) === true && session.length <= 256;
}

/** A build's entry file in preview needs `?session=pv_…` of an unexpired preview session of that build. */
export async function checkPreviewEntry(ctx: AppContext, buildId: number, session: string): Promise<void> {
  const found = await findPreviewSession(ctx.db, sha256(session), buildId, ctx.clock.now());
  if (!found) throw notAllowed('This preview has ended or is of another build; open the preview again');
}
