// The credential cache (PostgreSQL): two instances on one database; a token revoked, a player suspended, a membership
// changed or a token expired is refused or seen by the other instance at once, whoever wrote the change; with its
// listener cut, or its notifications lost on the way, each instance reads the database until it listens again.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { LISTENER_APPLICATION_NAME, NotificationListener } from '../../src/db/listener.js';
import { CredentialCache } from '../../src/modules/accounts/credential-cache.js';
import type { ActiveTokenRow } from '../../src/modules/accounts/tokens.repository.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { enabledDialects } from '../helpers/dialects.js';
import { createPlayerWithToken } from '../helpers/factories.js';
import { capturingLogger } from '../helpers/log.js';
import { startPgProxy, type PgProxy } from '../helpers/pg-proxy.js';
import { requester, type Requester } from '../helpers/request.js';

const onPostgres = enabledDialects().includes('postgres');

/** The credential lookups of one instance so far, by result. */
async function lookups(app: App): Promise<{ hit: number; miss: number }> {
  const { values } = await app.ctx.metrics.credentialLookups.get();
  const count = (result: string) => values.find((v) => v.labels.result === result)?.value ?? 0;
  return { hit: count('hit'), miss: count('miss') };
}

describe.skipIf(!onPostgres)('credential cache [postgres]', () => {
  let h: Harness & { close(): Promise<void> };
  let second: { app: App; database: DatabaseHandle; http: Requester };
  let admin: pg.Client;

  beforeAll(async () => {
    h = await createHarness('postgres');
    const database = openDatabase(h.config.database_url, { poolSize: 5 });
    const app = await buildApp({ config: h.config, database, clock: h.clock });
    await app.ready();
    second = { app, database, http: requester(app) };
    // an operator's own connection, outside both instances
    admin = new pg.Client({ connectionString: h.config.database_url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await second?.app.close();
    await second?.database.destroy();
    await h?.close();
  });

  /** A player whose token both instances have read once (so each holds it). */
  async function cachedEverywhere() {
    const made = await createPlayerWithToken(h.ctx);
    for (const http of [h.http, second.http])
      expect((await http.get('/v1/me', { token: made.token })).status).toBe(200);
    return made;
  }

  it('serves a token from memory once read, on each instance', async () => {
    const { token } = await cachedEverywhere();
    const before = await lookups(second.app);
    for (let i = 0; i < 5; i++) expect((await second.http.get('/v1/me', { token })).status).toBe(200);
    const after = await lookups(second.app);
    expect(after.hit - before.hit).toBe(5);
    expect(after.miss).toBe(before.miss);
  });

  it('refuses a token revoked through one instance on the other at once, every time', async () => {
    for (let i = 0; i < 15; i++) {
      const { token, tokenId } = await cachedEverywhere();
      const hits = (await lookups(second.app)).hit;
      expect((await second.http.get('/v1/me', { token })).status).toBe(200);
      expect((await lookups(second.app)).hit).toBe(hits + 1);
      expect((await h.http.delete(`/v1/me/tokens/${tokenId}`, { token })).status).toBe(200);
      const res = await second.http.get('/v1/me', { token });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthenticated');
    }
  });

  it('refuses the tokens of a player suspended by an operator in SQL, on both instances at once', async () => {
    const { token, player } = await cachedEverywhere();
    await admin.query(`update players set status = 'suspended' where id = $1`, [player.id]);
    expect((await second.http.get('/v1/me', { token })).status).toBe(401);
    expect((await h.http.get('/v1/me', { token })).status).toBe(401);
  });

  it('refuses a token revoked in SQL, and one whose player is deleted', async () => {
    const a = await cachedEverywhere();
    await admin.query('update player_tokens set revoked_at = 1 where id = $1', [a.tokenId]);
    expect((await second.http.get('/v1/me', { token: a.token })).status).toBe(401);
    const b = await cachedEverywhere();
    await admin.query('delete from players where id = $1', [b.player.id]);
    expect((await second.http.get('/v1/me', { token: b.token })).status).toBe(401);
  });

  it('reads the player again after a membership change, so the credential carries the new membership', async () => {
    const { token, player } = await cachedEverywhere();
    const misses = (await lookups(second.app)).miss;
    await admin.query(`update players set membership_plan = 'unlimited', membership_status = 'active' where id = $1`, [
      player.id,
    ]);
    const res = await second.http.get('/v1/me', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.membership.unlimited).toBe(true);
    expect((await lookups(second.app)).miss).toBe(misses + 1);
  });

  it('refuses a cached token once the clock passes its expiry', async () => {
    const { token } = await cachedEverywhere();
    const start = h.clock.now();
    try {
      h.clock.set(start + 91 * 86_400_000);
      expect((await second.http.get('/v1/me', { token })).status).toBe(401);
    } finally {
      h.clock.set(start);
    }
  });

  it('reads the database while its listener is cut, refuses a token revoked meanwhile, and listens again', async () => {
    const a = await cachedEverywhere();
    const b = await cachedEverywhere();
    const { rows } = await admin.query<{ n: number }>(
      `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where application_name = $1 and datname = current_database()`,
      [LISTENER_APPLICATION_NAME],
    );
    expect(rows[0]!.n).toBe(2);
    // both instances lost their listeners: the revocation reaches neither by notification
    expect((await h.http.delete(`/v1/me/tokens/${a.tokenId}`, { token: a.token })).status).toBe(200);
    expect((await second.http.get('/v1/me', { token: a.token })).status).toBe(401);
    expect((await second.http.get('/v1/me', { token: b.token })).status).toBe(200);
    // listening again (it reconnects on its own), the cache serves again
    await vi.waitFor(
      async () => {
        const hits = (await lookups(second.app)).hit;
        expect((await second.http.get('/v1/me', { token: b.token })).status).toBe(200);
        expect((await lookups(second.app)).hit).toBe(hits + 1);
      },
      { timeout: 10_000, interval: 50 },
    );
    expect((await h.http.delete(`/v1/me/tokens/${b.tokenId}`, { token: b.token })).status).toBe(200);
    expect((await second.http.get('/v1/me', { token: b.token })).status).toBe(401);
  });
});

/**
 * An instance whose connections go through a proxy that can lose PostgreSQL's notifications (startPgProxy): as behind
 * a pooler in transaction mode, where a NOTIFY runs on another server connection than the LISTEN and nothing comes
 * back. The echo that guards every cached token comes back no more than the notifications do.
 */
describe.skipIf(!onPostgres)('credential cache, notifications lost on the way [postgres]', () => {
  let h: Harness & { close(): Promise<void> };
  let proxy: PgProxy;
  let proxied: { app: App; database: DatabaseHandle; http: Requester };
  let admin: pg.Client;
  const log = capturingLogger('warn');

  beforeAll(async () => {
    h = await createHarness('postgres');
    proxy = await startPgProxy(h.config.database_url);
    // From its start: its first echo (the probe) never comes back.
    proxy.loseNotifications = true;
    const database = openDatabase(proxy.url, { poolSize: 3 });
    const app = await buildApp({
      config: { ...h.config, database_url: proxy.url },
      database,
      clock: h.clock,
      logger: log.logger,
    });
    await app.ready();
    proxied = { app, database, http: requester(app) };
    admin = new pg.Client({ connectionString: h.config.database_url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await proxied?.app.close();
    await proxied?.database.destroy();
    await proxy?.close();
    await h?.close();
  });

  /** Waits until the proxied instance serves `token` from its cache again (its listener back up). */
  async function servedFromCache(token: string): Promise<void> {
    await vi.waitFor(
      async () => {
        const hits = (await lookups(proxied.app)).hit;
        expect((await proxied.http.get('/v1/me', { token })).status).toBe(200);
        expect((await lookups(proxied.app)).hit).toBe(hits + 1);
      },
      { timeout: 20_000, interval: 100 },
    );
  }

  it('without an echo of its probe it never serves from memory: every token is read from the database, and it says why', async () => {
    expect(proxied.app.credentialCache).toBeDefined();
    expect(proxy.lost).toBeGreaterThan(0);
    const why = log
      .find('warn', 'notification listener: cannot listen')
      .map((l) => (l.err as { message?: string } | undefined)?.message);
    expect(why).toContainEqual(expect.stringContaining('no echo of a NOTIFY within 2000 ms'));
    const { token, tokenId } = await createPlayerWithToken(h.ctx);
    const before = await lookups(proxied.app);
    for (let i = 0; i < 4; i++) expect((await proxied.http.get('/v1/me', { token })).status).toBe(200);
    const after = await lookups(proxied.app);
    expect(after.hit - before.hit).toBe(0);
    expect(after.miss - before.miss).toBe(4);
    // revoked through the other instance: refused here at once, without any notification
    expect((await h.http.delete(`/v1/me/tokens/${tokenId}`, { token })).status).toBe(200);
    expect((await proxied.http.get('/v1/me', { token })).status).toBe(401);
  });

  it('listens once notifications come through again, then serves from memory', async () => {
    proxy.loseNotifications = false;
    const { token } = await createPlayerWithToken(h.ctx);
    await servedFromCache(token);
  });

  it('refuses a cached token revoked while its notification and the echo are lost: the request reads the database', async () => {
    const { token, tokenId } = await createPlayerWithToken(h.ctx);
    await servedFromCache(token);
    const lost = proxy.lost;
    proxy.loseNotifications = true;
    await admin.query('update player_tokens set revoked_at = 1 where id = $1', [tokenId]);
    // The token is in memory, and its revocation's notification never arrives: the echo sent before using it is
    // lost too, so the request gives up on the listener (2 s) and reads the database.
    expect((await proxied.http.get('/v1/me', { token })).status).toBe(401);
    expect(proxy.lost).toBeGreaterThan(lost);
    expect(log.find('warn', 'not back after').length).toBeGreaterThan(0);
    proxy.loseNotifications = false;
    const other = await createPlayerWithToken(h.ctx);
    await servedFromCache(other.token);
  });
});

describe.skipIf(!onPostgres)('notification listener [postgres]', () => {
  let h: Harness & { close(): Promise<void> };
  beforeAll(async () => {
    h = await createHarness('postgres', { settings: { credential_cache: false } });
  });
  afterAll(async () => h?.close());

  it('is off with credential_cache false', () => {
    expect(h.app.credentialCache).toBeUndefined();
  });

  it('has received every notification committed before caughtUp() was called when it resolves', async () => {
    const received: string[] = [];
    const listener = new NotificationListener(h.config.database_url, ['gp_test_channel'], {
      onNotification: (_channel, payload) => received.push(payload),
      onReset: () => undefined,
    });
    const sender = new pg.Client({ connectionString: h.config.database_url });
    await sender.connect();
    try {
      await listener.start();
      expect(listener.up).toBe(true);
      for (let i = 0; i < 200; i++) {
        await sender.query(`select pg_notify('gp_test_channel', $1)`, [String(i)]);
        expect(await listener.caughtUp()).toBe(true);
        expect(received.at(-1)).toBe(String(i));
      }
      // many callers at once share echoes
      await sender.query(`select pg_notify('gp_test_channel', 'last')`);
      expect(await Promise.all(Array.from({ length: 100 }, () => listener.caughtUp()))).toEqual(Array(100).fill(true));
      expect(received.at(-1)).toBe('last');
    } finally {
      await sender.end();
      await listener.close();
    }
    expect(listener.up).toBe(false);
    expect(await listener.caughtUp()).toBe(false);
  });
});

describe.skipIf(!onPostgres)('credential cache, its bookkeeping [postgres]', () => {
  let h: Harness & { close(): Promise<void> };
  let cache: CredentialCache;
  let listener: NotificationListener;
  beforeAll(async () => {
    h = await createHarness('postgres', { settings: { credential_cache: false } });
    cache = new CredentialCache(3);
    listener = new NotificationListener(h.config.database_url, ['gp_credentials'], {
      onNotification: (_channel, payload) => cache.notified(payload),
      onReset: () => cache.clear(),
    });
    cache.attach(listener);
    await listener.start();
  });
  afterAll(async () => {
    await cache?.close();
    await h?.close();
  });

  const row = (player_id: number, token_id: number): ActiveTokenRow => ({
    token_id,
    player_id,
    last_used_at: 0,
    expires_at: 1000,
    role: 'player',
    membership_plan: 'free',
    membership_status: 'none',
    membership_renews_at: null,
    membership_ends_at: null,
  });
  const store = (hash: string, r: ActiveTokenRow) => cache.set(hash, r, cache.generation());

  it("drops the oldest token past its size, a player's tokens on their notification, all of them on a reset", async () => {
    store('a', row(1, 1));
    store('b', row(1, 2));
    store('c', row(2, 3));
    store('d', row(3, 4));
    expect(await cache.get('a', 0, 0)).toBeUndefined();
    expect((await cache.get('b', 0, 0))?.token_id).toBe(2);
    expect(await cache.get('d', 999, 0)).toBeDefined();
    expect(await cache.get('d', 1000, 0)).toBeUndefined(); // expired
    expect(await cache.get('d', 999, 1)).toBeUndefined(); // its last use due to be written: read the database
    cache.notified('1');
    expect(await cache.get('b', 0, 0)).toBeUndefined();
    expect(await cache.get('c', 0, 0)).toBeDefined();
    cache.notified('*');
    expect(await cache.get('c', 0, 0)).toBeUndefined();
  });

  it('does not store a read that a notification overtook', async () => {
    const generation = cache.generation();
    cache.notified('9');
    cache.set('e', row(5, 5), generation);
    expect(await cache.get('e', 0, 0)).toBeUndefined();
    cache.set('e', row(5, 5), cache.generation());
    expect(await cache.get('e', 0, 0)).toBeDefined();
  });
});

describe('credential cache [sqlite]', () => {
  it('is not used on SQLite', async () => {
    const h = await createHarness('sqlite');
    try {
      expect(h.app.credentialCache).toBeUndefined();
    } finally {
      await h.close();
    }
  });
});
