// The bare route the HTTP benchmark compares against: Fastify 5 with default settings, GET / and POST / (JSON), no
// logging, no database. Run as its own process by bench/http.ts; prints "listening <port>" once ready.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ data: { ok: true } }));
app.post('/', async (request) => ({ data: { received: request.body } }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
