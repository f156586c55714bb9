#!/usr/bin/env node
// The installed command runs the compiled CLI (npm run build, or npm start, compiles it).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/src/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('gameplatform: the service is not built yet; run `npm run build` first');
  process.exit(1);
}
const { runCli } = await import(cli.href);
await runCli();
