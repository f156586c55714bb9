// Where the built front-end lives (dist/web under the package root) and what the build wrote there.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: sources sit at src/modules/portal, compiled code at dist/src/modules/portal. */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'package.json');
    if (
      existsSync(candidate) &&
      (JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string }).name === 'gameplatform'
    )
      return dir;
    dir = path.dirname(dir);
  }
  throw new Error('package.json of gameplatform not found above the portal module');
}

export const webRoot = (): string => path.join(packageRoot(), 'dist', 'web');

/** Written in the built SDK (sdk/v1.ts); the server puts the portal's origin in its place when it serves the script. */
export const PORTAL_ORIGIN_TOKEN = '%PORTAL_ORIGIN%';

/** Names of the built files, by role: the HTML links hashed names so assets can be cached for good. */
export interface Manifest {
  script: string;
  style: string;
  /** the studio console's charts (portal/charts.ts): loaded by the studio page alone, when it draws a chart */
  charts: { script: string; style: string };
  built_at: string;
}

export function readManifest(root = webRoot()): Manifest | null {
  try {
    return JSON.parse(readFileSync(path.join(root, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}
