// A TCP proxy in front of PostgreSQL that can lose the server's notifications on the way (NotificationResponse
// messages, type 'A'), as a pooler in transaction mode does (its NOTIFY runs on one server connection and the LISTEN
// on another) or a connection that silently stops delivering. Everything else passes untouched, both ways.
import net, { type AddressInfo } from 'node:net';

/** The server's NotificationResponse message type. */
const NOTIFICATION = 0x41; // 'A'

export interface PgProxy {
  /** the database URL `url` through the proxy (its host and port replaced) */
  url: string;
  /** while true, notifications from the server are dropped */
  loseNotifications: boolean;
  /** notifications dropped so far */
  lost: number;
  close(): Promise<void>;
}

/** Starts a proxy to the server of `url` (a postgres:// URL); the client must not ask for TLS. */
export async function startPgProxy(url: string): Promise<PgProxy> {
  const target = new URL(url);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    // Every message from the server: a type byte, then its length (itself included) as an int32.
    let pending: Buffer = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const kept: Buffer[] = [];
      let offset = 0;
      while (pending.length - offset >= 5) {
        const end = offset + 1 + pending.readInt32BE(offset + 1);
        if (pending.length < end) break;
        if (pending[offset] === NOTIFICATION && proxy.loseNotifications) proxy.lost++;
        else kept.push(pending.subarray(offset, end));
        offset = end;
      }
      pending = pending.subarray(offset);
      if (kept.length) client.write(Buffer.concat(kept));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  const proxy: PgProxy = {
    url: proxied.toString(),
    loseNotifications: false,
    lost: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
