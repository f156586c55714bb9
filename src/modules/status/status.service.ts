// Health data for GET /status.
import { serviceVersion } from '../../lib/version.js';
import type { AppContext } from '../../context.js';
import { API_VERSION } from '../../http/openapi.js';
import { formatTimestamp } from '../../time.js';
import { currentCounts } from './status.counts.js';

export async function getStatus(ctx: AppContext) {
  const now = ctx.clock.now();
  const { games, playersOnline } = await currentCounts(ctx, now);
  return {
    version: serviceVersion(),
    api_version: API_VERSION,
    server_time: formatTimestamp(now),
    games,
    players_online: playersOnline,
  };
}
