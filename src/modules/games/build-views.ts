// A build as the API shows it, and the small shapes builds, releases and uploads share.
import type { AppContext } from '../../context.js';
import { formatTimestamp } from '../../time.js';
import type { BuildRow } from './builds.repository.js';

export interface GameRef {
  id: number;
  slug: string;
}

/** Who uploaded a build: a member's token (playerId), or a developer key with builds:write (keyId). */
export interface Uploader {
  playerId: number | null;
  keyId: number | null;
}

export interface BuildView {
  number: number;
  version: string;
  /** ready: its files are stored; pruned: deleted (setting builds.keep), it can no longer be previewed or released */
  state: 'ready' | 'pruned';
  /** the build players get now */
  live: boolean;
  files: number;
  bytes: number;
  /** the uploader's username; null for a developer key (or an account since deleted) */
  uploaded_by: string | null;
  uploaded_with: 'token' | 'key';
  created_at: string;
  /** when it first went live; null: never released */
  released_at: string | null;
  entry: string;
  /** the build in the real play shell, for the studio's members */
  preview_url: string;
}

export function previewUrl(ctx: AppContext, slug: string, number: number): string {
  return `${ctx.config.public_url}/preview/${encodeURIComponent(slug)}/${number}`;
}

export function toBuildView(ctx: AppContext, slug: string, row: BuildRow, liveSet: string): BuildView {
  return {
    number: row.number,
    version: row.version,
    state: row.state === 'pruned' ? 'pruned' : 'ready',
    live: row.files_dir === liveSet && row.state === 'ready',
    files: row.files,
    bytes: Number(row.bytes),
    uploaded_by: row.uploader,
    uploaded_with: row.uploaded_key_id !== null ? 'key' : 'token',
    created_at: formatTimestamp(row.created_at),
    released_at: row.released_at === null ? null : formatTimestamp(row.released_at),
    entry: row.entry,
    preview_url: previewUrl(ctx, slug, row.number),
  };
}
