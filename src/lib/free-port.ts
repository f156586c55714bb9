// A port the kernel hands out for `listen(0)` on an address, closed again at once: for a service told to listen on
// any free port (port 0) that must know its port before it listens (public_url names it).
import { createServer, type AddressInfo } from 'node:net';

export function pickFreePort(host: string): Promise<number> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
