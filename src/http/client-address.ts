// The address a request comes from, as the limits count it: behind trust_proxy the client's (Fastify reads
// X-Forwarded-For then), an IPv6 address by its /64 (one host holds a whole /64), 'gone' once the client has reset.
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';

export function clientAddress(request: FastifyRequest): string {
  const ip = request.ip;
  if (!ip) return 'gone';
  return ip.includes(':') ? normalizeIP(ip) : ip.toLowerCase();
}
