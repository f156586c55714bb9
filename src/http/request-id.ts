// The request id: a new UUID, or the X-Request-Id sent by a trusted proxy (trust_proxy), so that one id follows a request
// through the proxy's log and ours. Sent back in the X-Request-Id header (security.ts) and in a 500's body.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** What an incoming id may be: printable, no spaces, short (it is logged and echoed). */
const VALID_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Whether the immediate peer is a trusted proxy, under trust_proxy as config.ts checked it. */
function trustedPeer(trustProxy: string): ((address: string) => boolean) | null {
  if (!trustProxy) return null;
  if (trustProxy === 'true') return () => true;
  if (/^\d+$/.test(trustProxy)) return Number(trustProxy) > 0 ? () => true : null;
  const trust = proxyAddr.compile(trustProxy.split(',').map((value) => value.trim()));
  return (address) => trust(address, 0);
}

export function requestIdGenerator(trustProxy: string): (req: IncomingMessage) => string {
  const trusted = trustedPeer(trustProxy);
  return (req) => {
    const incoming = req.headers['x-request-id'];
    if (trusted && typeof incoming === 'string' && VALID_ID.test(incoming) && trusted(req.socket?.remoteAddress ?? ''))
      return incoming;
    return randomUUID();
  };
}
