// A loopback TCP port that was free a moment ago: for servers a test starts itself (and, closed again, one nothing listens on).
// It is taken below the kernel's ephemeral range (32768–60999 on Linux), where servers listening on port 0 (every
// other test's) never land: a port a test keeps closed to play an outage is not taken over by another test file.
import { createServer, type AddressInfo } from 'node:net';

const LOW = 20_000;
const HIGH = 32_767;

function tryListen(port: number): Promise<number | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await tryListen(LOW + Math.floor(Math.random() * (HIGH - LOW + 1)));
    if (port !== undefined) return port;
  }
  return (await tryListen(0))!;
}
