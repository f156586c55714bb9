// The migrations, in order. Add a new one as <date>_<n>_<what>.ts and list it here.
import type { Migration } from 'kysely';
import * as core from './2026_11_21_0001_core.js';
import * as playCore from './2026_11_21_0002_play_core.js';
import * as accounts from './2026_11_21_0010_accounts.js';
import * as gamesCatalogue from './2026_11_21_0020_games_catalogue.js';
import * as scores from './2026_11_21_0030_scores.js';
import * as saveStates from './2026_11_21_0040_save_states.js';
import * as playSessions from './2026_11_21_0050_play_sessions.js';
import * as devStats from './2026_11_21_0060_dev_stats.js';
import * as gameIsolation from './2026_11_23_0170_game_isolation.js';
import * as mailRetry from './2026_11_23_0201_mail_retry.js';
import * as playContinues from './2026_11_23_1700_play_continues.js';
import * as tokensNeverUsed from './2026_11_23_0401_tokens_never_used.js';
import * as tokenKinds from './2026_11_23_1810_token_kinds.js';
import * as accountSelfService from './2026_11_23_2310_account_self_service.js';
import * as gamePlaytimeShards from './2026_11_27_1200_game_playtime_shards.js';
import * as heartbeatWritesNoIndex from './2026_11_27_1900_heartbeat_writes_no_index.js';
import * as credentialNotifications from './2026_11_27_2100_credential_notifications.js';
import * as guests from './2026_11_28_10_01_guests.js';
import * as studios from './2026_11_28_11_01_studios.js';
import * as builds from './2026_11_28_11_02_builds.js';
import * as previewData from './2026_11_28_11_03_preview_data.js';
import * as leaderboardBounds from './2026_11_28_1201_leaderboard_bounds.js';
import * as auditLog from './2026_11_28_2100_audit_log.js';
import * as mailOutboxPlayer from './2026_11_28_2131_mail_outbox_player.js';
import * as featuredGames from './2026_11_29_0232_featured_games.js';
import * as gameRatings from './2026_11_29_0217_game_ratings.js';
import * as leaderboardSeasons from './2026_11_29_0215_leaderboard_seasons.js';
import * as saveWrites from './2026_11_29_0231_save_writes.js';

export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_core': core,
  '2026_11_21_0002_play_core': playCore,
  '2026_11_21_0010_accounts': accounts,
  '2026_11_21_0020_games_catalogue': gamesCatalogue,
  '2026_11_21_0030_scores': scores,
  '2026_11_21_0040_save_states': saveStates,
  '2026_11_21_0050_play_sessions': playSessions,
  '2026_11_21_0060_dev_stats': devStats,
  '2026_11_23_0170_game_isolation': gameIsolation,
  '2026_11_23_0201_mail_retry': mailRetry,
  '2026_11_23_1700_play_continues': playContinues,
  '2026_11_23_0401_tokens_never_used': tokensNeverUsed,
  '2026_11_23_1810_token_kinds': tokenKinds,
  '2026_11_23_2310_account_self_service': accountSelfService,
  '2026_11_27_1200_game_playtime_shards': gamePlaytimeShards,
  '2026_11_27_1900_heartbeat_writes_no_index': heartbeatWritesNoIndex,
  '2026_11_27_2100_credential_notifications': credentialNotifications,
  '2026_11_28_10_01_guests': guests,
  '2026_11_28_11_01_studios': studios,
  '2026_11_28_11_02_builds': builds,
  '2026_11_28_11_03_preview_data': previewData,
  '2026_11_28_1201_leaderboard_bounds': leaderboardBounds,
  '2026_11_28_2100_audit_log': auditLog,
  '2026_11_28_2131_mail_outbox_player': mailOutboxPlayer,
  '2026_11_29_0215_leaderboard_seasons': leaderboardSeasons,
  '2026_11_29_0217_game_ratings': gameRatings,
  '2026_11_29_0231_save_writes': saveWrites,
  '2026_11_29_0232_featured_games': featuredGames,
};
