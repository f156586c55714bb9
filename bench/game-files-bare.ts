// The bare file route bench/game-files.ts compares against: Fastify 5 with default settings sending a file from disk
// as a stream with its Content-Length and nothing else (no store, no variant, no headers of the service). Run as its
// own process; prints "listening <port>" once ready. BARE_DIR is the folder of the files.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import Fastify from 'fastify';

const dir = process.env.BARE_DIR ?? '.';
const app = Fastify({ logger: false });
app.get('/*', async (request, reply) => {
  const file = path.join(dir, (request.params as { '*': string })['*']);
  const { size } = await stat(file);
  reply.header('content-length', String(size)).type('application/octet-stream');
  return createReadStream(file);
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
