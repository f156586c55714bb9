// The better-sqlite3 build for this Node.js: 13 (prebuilt, Node 22 and newer); on Node 20, which 13 does not support,
// the optional 12 (compiled at install) so that `npm ci && npm start` still works on a machine that has only Node 20.
import { createRequire } from 'node:module';
import type SqliteDatabase from 'better-sqlite3';

const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);

/** True when this Node.js is older than the versions `engines` names and runs on the legacy SQLite driver. */
export const legacyNode = nodeMajor < 22;

function load(): typeof SqliteDatabase {
  if (!legacyNode) return require('better-sqlite3') as typeof SqliteDatabase;
  try {
    return require('better-sqlite3-node20') as typeof SqliteDatabase;
  } catch {
    throw new Error(
      `Node.js ${process.versions.node} is past its end of life; run the service on Node.js 22.12 or newer (24 LTS recommended)`,
    );
  }
}

export const Sqlite: typeof SqliteDatabase = load();
