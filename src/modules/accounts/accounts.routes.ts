// Every route of the accounts capability: authentication, the own account, tokens, avatars and public profiles.
import type { FastifyInstance } from 'fastify';
import { authRoutes } from './auth.routes.js';
import { avatarRoutes } from './avatar.routes.js';
import { guestRoutes } from './guests.routes.js';
import { meRoutes } from './me.routes.js';
import { playerRoutes } from './players.routes.js';
import { selfServiceRoutes } from './self-service.routes.js';
import { tokenRoutes } from './tokens.routes.js';

export async function accountsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(authRoutes);
  await app.register(guestRoutes);
  await app.register(meRoutes);
  await app.register(tokenRoutes);
  await app.register(avatarRoutes);
  await app.register(playerRoutes);
  await app.register(selfServiceRoutes);
}
