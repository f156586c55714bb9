// The stored objects games point at: each game's current file set and the one it replaced, still served under its
// versioned URL (a backup copies or lists them).
import type { Executor } from '../../db/connect.js';
import { slugPrefix } from './files.js';

/** The store folders (`games/<slug>/<set>/`) of every file set a game serves. */
export async function fileSetPrefixes(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('games').select(['slug', 'files_dir', 'previous_files_dir']).execute();
  return rows.flatMap((row) =>
    [row.files_dir, row.previous_files_dir]
      .filter((set): set is string => Boolean(set))
      .map((set) => `${slugPrefix(row.slug)}/${set}/`),
  );
}
