// Health data for GET /status.
import { serviceVersion } from '../../lib/version.js';
import type { AppContext } from '../../context.js';
import { API_VERSION } from '../../http/openapi.js';
import { formatTimestamp } from '../../time.js';
import { countListedGames, countPlayersOnline } from './status.repository.js';

export async function getStatus(ctx: AppContext) {
  const now = ctx.clock.now();
  const idleSince = now - ctx.config.session_idle_timeout * 1000;
  const [games, playersOnline] = await Promise.all([countListedGames(ctx.db), countPlayersOnline(ctx.db, idleSince)]);
  return {
    version: serviceVersion(),
    api_version: API_VERSION,
    server_time: formatTimestamp(now),
    games,
    players_online: playersOnline,
  };
}
