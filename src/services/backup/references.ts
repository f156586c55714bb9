// What a backup must carry besides the database: the stored objects the database points at, read from the snapshot.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface StoredReferences {
  /** single objects (avatars/<file>) */
  keys: string[];
  /** folders whose every object counts (games/<slug>/<set>/) */
  prefixes: string[];
}

/** Reads the references from a database (the snapshot's): the command line composes it from the capabilities. */
export type ReferenceReader = (db: Kysely<Database>) => Promise<StoredReferences>;
