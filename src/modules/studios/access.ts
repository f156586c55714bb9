// Who reaches a studio's games: its members (owner or developer) and the operators (staff, admin). Anyone else gets
// 404, as for a game that does not exist, so slugs cannot be probed; a developer key reaches only its own game's builds
// (403 for another game's, as everywhere in the API).
import type { AppContext } from '../../context.js';
import type { Credential, PlayerCredential, Scope } from '../../http/auth.js';
import { AppError, notFound } from '../../http/errors.js';
import { findStudioGame, type StudioGameRow } from '../games/studio-games.service.js';
import { findRole, findStudioById, type StudioRow } from './studios.repository.js';

export const STUDIO_ROLES = ['owner', 'developer'] as const;
export type StudioRole = (typeof STUDIO_ROLES)[number];
/** An operator acts as any studio's owner. */
export type Access = StudioRole | 'operator';

export function isOperator(credential: Credential | null): boolean {
  return credential?.kind === 'player' && (credential.role === 'staff' || credential.role === 'admin');
}

/** The player behind the credential, or 403 for a developer key. */
export function memberOf(credential: Credential | null): PlayerCredential {
  if (credential?.kind !== 'player')
    throw new AppError('forbidden', 'A developer key cannot be used here; use a player token');
  return credential;
}

/** A pending studio (signed up, not approved) may be looked at by its members, nothing more. */
function checkActive(studio: StudioRow, forWriting: boolean): void {
  if (forWriting && studio.status !== 'active')
    throw new AppError('studio_pending', `The studio ${studio.slug} waits for an operator's approval`);
}

/** The caller's access to the studio; 404 for a non-member, as for an unknown studio. */
export async function studioAccess(
  ctx: AppContext,
  credential: Credential | null,
  studio: StudioRow | undefined,
  options: { owner?: boolean; write?: boolean } = {},
): Promise<{ studio: StudioRow; access: Access }> {
  const player = memberOf(credential);
  if (!studio) throw notFound('No such studio');
  if (isOperator(player)) return { studio, access: 'operator' };
  const role = (await findRole(ctx.db, studio.id, player.playerId)) as StudioRole | undefined;
  if (!role) throw notFound('No such studio');
  checkActive(studio, options.write === true || options.owner === true);
  if (options.owner && role !== 'owner') throw new AppError('forbidden', 'Only an owner of the studio can do this');
  return { studio, access: role };
}

export interface GameAccess {
  game: StudioGameRow;
  access: Access | 'key';
  /** the member acting (null for a developer key) */
  playerId: number | null;
  keyId: number | null;
}

/**
 * The game with this slug, if the caller may act on it: an operator; a member of the studio that owns it (an active
 * studio for anything but reading); a developer key of this very game with `scope` (only where a route allows keys).
 * Everyone else, and a game that does not exist, is 404.
 */
export async function gameAccess(
  ctx: AppContext,
  credential: Credential | null,
  slug: string,
  options: { write?: boolean; scope?: Scope } = {},
): Promise<GameAccess> {
  const game = await findStudioGame(ctx, slug);
  if (credential?.kind === 'key') {
    if (!options.scope) throw new AppError('forbidden', 'A developer key cannot be used here; use a player token');
    if (!game) throw notFound(`No game ${slug}`);
    if (credential.gameId !== game.id) throw new AppError('forbidden', 'This developer key belongs to another game');
    if (!credential.scopes.has(options.scope))
      throw new AppError('insufficient_scope', `This developer key lacks the scope ${options.scope}`, {
        required_scope: options.scope,
      });
    return { game, access: 'key', playerId: null, keyId: credential.keyId };
  }
  const player = memberOf(credential);
  if (!game) throw notFound(`No game ${slug}`);
  if (isOperator(player)) return { game, access: 'operator', playerId: player.playerId, keyId: null };
  const studio = game.studio_id === null ? undefined : await findStudioById(ctx.db, game.studio_id);
  const role = studio ? ((await findRole(ctx.db, studio.id, player.playerId)) as StudioRole | undefined) : undefined;
  if (!studio || !role) throw notFound(`No game ${slug}`);
  checkActive(studio, options.write === true);
  return { game, access: role, playerId: player.playerId, keyId: null };
}
