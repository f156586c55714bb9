// The service's own version, read once from package.json.
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function serviceVersion(): string {
  if (cached) return cached;
  // Sources sit at src/lib, compiled code at dist/src/lib: package.json is two or three levels up.
  for (const candidate of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as {
        name?: string;
        version: string;
      };
      if (pkg.name === 'gameplatform') return (cached = pkg.version);
    } catch {
      // not at this level
    }
  }
  return (cached = '0.0.0');
}
