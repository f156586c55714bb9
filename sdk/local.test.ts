// Local mode: the SDK over the in-page stand-in, as a game opened on its own uses it (saves and scores in storage).
import { describe, expect, it } from 'vitest';
import { Client, createSdk } from './client.js';
import { LOCAL_SAVE_SLOTS, LocalStandIn, type LocalManifest, type StorageLike } from './local.js';

class MapStorage implements StorageLike {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

function local(options: { storage?: StorageLike | null; start?: string } = {}) {
  let now = new Date(options.start ?? '2026-11-23T10:00:00Z').getTime();
  const storage = options.storage === undefined ? new MapStorage() : options.storage;
  const standIn = new LocalStandIn({
    storage,
    key: 'gameplatform.local:/clicker/',
    slug: 'clicker',
    name: 'Clicker',
    now: () => now,
  });
  const sdk = createSdk(new Client({ local: (method, params) => standIn.answer(method, params) }));
  return { sdk, storage, advance: (seconds: number) => (now += seconds * 1000) };
}

describe('sdk: local mode', () => {
  it('says it is local in init(): the game, a local player, no limit', async () => {
    const { sdk } = local();
    const info = await sdk.init();
    expect(info).toMatchObject({
      local: true,
      game: {
        slug: 'clicker',
        name: 'Clicker',
        save_slots: LOCAL_SAVE_SLOTS,
        leaderboard: { enabled: true, order: 'desc' },
      },
      player: { id: 0, username: 'local', display_name: 'Local player' },
      entitlement: { unlimited: true, remaining_seconds: null, limit_reached: false, day: '2026-11-23' },
    });
  });

  it('keeps saves in the storage, across a reload of the page', async () => {
    const { sdk, storage, advance } = local();
    expect(await sdk.saves.load(0)).toBeNull();
    expect(await sdk.saves.save(0, { format: 1, clicks: 3 }, { label: 'Level 1' })).toEqual({
      slot: 0,
      version: 1,
      size_bytes: 23,
      created: true,
    });
    advance(60);
    expect(await sdk.saves.save(0, { format: 1, clicks: 5 })).toMatchObject({ version: 2, created: false });
    await sdk.saves.save(2, 'two');

    const again = local({ storage }).sdk; // the page loaded again: a new stand-in over the same storage
    expect(await again.saves.load(0)).toEqual({
      slot: 0,
      label: 'Level 1',
      version: 2,
      size_bytes: 23,
      state: { format: 1, clicks: 5 },
      updated_at: '2026-11-23 10:01:00',
    });
    expect((await again.saves.list()).map((s) => [s.slot, s.version, s.created_at])).toEqual([
      [0, 2, '2026-11-23 10:00:00'],
      [2, 1, '2026-11-23 10:01:00'],
    ]);
    expect(await again.saves.delete(2)).toEqual({ deleted: true });
    expect(await again.saves.delete(2)).toEqual({ deleted: false });
    expect(JSON.parse((storage as MapStorage).items.get('gameplatform.local:/clicker/')!).saves).not.toHaveProperty(
      '2',
    );
  });

  it('gives copies: changing a loaded state changes nothing stored', async () => {
    const { sdk } = local();
    await sdk.saves.save(1, { items: ['sword'] });
    const loaded = await sdk.saves.load<{ items: string[] }>(1);
    loaded!.state.items.push('shield');
    expect((await sdk.saves.load<{ items: string[] }>(1))!.state.items).toEqual(['sword']);
  });

  it('refuses as the platform does: version_conflict, state_too_large, a slot out of range', async () => {
    const { sdk } = local();
    await sdk.saves.save(0, { a: 1 });
    await expect(sdk.saves.save(0, { a: 2 }, { expected_version: 0 })).rejects.toMatchObject({
      code: 'version_conflict',
      status: 409,
      details: { current_version: 1 },
    });
    await expect(sdk.saves.save(1, { a: 2 }, { expected_version: 0 })).resolves.toMatchObject({
      version: 1,
      created: true,
    });
    await expect(sdk.saves.save(3, 'x'.repeat(262_144))).rejects.toMatchObject({
      code: 'state_too_large',
      status: 413,
    });
    await expect(sdk.saves.load(LOCAL_SAVE_SLOTS)).rejects.toMatchObject({
      code: 'validation_failed',
      details: { fields: { slot: expect.any(String) } },
    });
    await expect(sdk.scores.submit(1, { board: 'Bad Board' })).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('keeps scores: personal bests, and a board of one by period', async () => {
    const { sdk, advance } = local({ start: '2026-11-23T10:00:00Z' }); // a Monday
    expect(await sdk.scores.submit(40)).toEqual({
      accepted: true,
      score: 40,
      board: 'main',
      rank: { rank: 1, best: 40 },
      personal_best: true,
    });
    expect(await sdk.scores.submit(30)).toMatchObject({ rank: { rank: 1, best: 40 }, personal_best: false });
    await sdk.scores.submit(7, { board: 'speed' });
    advance(24 * 3600); // Tuesday
    expect(await sdk.scores.submit(35)).toMatchObject({ personal_best: false });

    const all = await sdk.leaderboard.read();
    expect(all).toMatchObject({
      board: 'main',
      period: 'all',
      me: { rank: 1, best: 40 },
      total: 1,
      limit: 10,
      offset: 0,
    });
    expect(all.rows).toEqual([
      {
        rank: 1,
        score: 40,
        entries: 3,
        last_played: '2026-11-24 10:00:00',
        player: { username: 'local', display_name: 'Local player', country: null, avatar_url: '' },
      },
    ]);
    expect((await sdk.leaderboard.read({ period: 'day' })).rows[0]).toMatchObject({ score: 35, entries: 1 });
    expect((await sdk.leaderboard.read({ period: 'week' })).rows[0]).toMatchObject({ score: 40, entries: 3 });
    expect((await sdk.leaderboard.read({ board: 'speed' })).rows[0]).toMatchObject({ score: 7 });
    expect(await sdk.leaderboard.read({ board: 'empty' })).toMatchObject({
      rows: [],
      me: { rank: null, best: null },
      total: 0,
    });
    advance(7 * 24 * 3600);
    expect((await sdk.leaderboard.read({ period: 'week' })).rows).toEqual([]);
  });

  it('has no identity token to give: local_mode', async () => {
    const { sdk } = local();
    await expect(sdk.identityToken()).rejects.toMatchObject({
      name: 'GamePlatformError',
      code: 'local_mode',
      status: 0,
    });
  });

  it('keeps to memory when the page has no storage, or the storage refuses', async () => {
    const none = local({ storage: null }).sdk;
    await none.saves.save(0, 1);
    expect(await none.saves.load(0)).toMatchObject({ state: 1 });
    const refusing: StorageLike = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const full = local({ storage: refusing }).sdk;
    await full.saves.save(0, 'kept');
    expect(await full.saves.load(0)).toMatchObject({ state: 'kept', version: 1 });
  });
});

describe('sdk: local mode with a game.json and simulated events', () => {
  function configured(manifest: LocalManifest) {
    const standIn = new LocalStandIn({ storage: new MapStorage(), slug: 'page-dir', name: 'Page title' });
    standIn.configure(manifest);
    return { standIn, sdk: createSdk(new Client({ local: (method, params) => standIn.answer(method, params) })) };
  }

  it("reports game.json's slug, name, version, slots and board, and keeps to its slots", async () => {
    const { sdk } = configured({
      slug: 'clicker',
      name: 'Clicker',
      version: '1.2.0',
      save_slots: 3,
      orientation: 'landscape',
      leaderboard: { enabled: true, order: 'asc', unit: 'ms' },
    });
    expect((await sdk.init()).game).toEqual({
      slug: 'clicker',
      name: 'Clicker',
      version: '1.2.0',
      save_slots: 3,
      orientation: 'landscape',
      leaderboard: { enabled: true, order: 'asc', unit: 'ms' },
    });
    await sdk.saves.save(2, { ok: true });
    await expect(sdk.saves.save(3, {})).rejects.toMatchObject({ code: 'validation_failed', status: 422 });
  });

  it('keeps the lowest score as the best for order asc', async () => {
    const { sdk } = configured({ leaderboard: { order: 'asc', unit: 'ms' } });
    expect(await sdk.scores.submit(300)).toMatchObject({ personal_best: true, rank: { best: 300 } });
    expect(await sdk.scores.submit(250)).toMatchObject({ personal_best: true, rank: { best: 250 } });
    expect(await sdk.scores.submit(400)).toMatchObject({ personal_best: false, rank: { best: 250 } });
    expect(await sdk.leaderboard.read()).toMatchObject({ order: 'asc', unit: 'ms', me: { best: 250 } });
  });

  it('has no slots when game.json names none, and refuses scores when its leaderboard is off', async () => {
    const { sdk } = configured({ leaderboard: { enabled: false } });
    expect((await sdk.init()).game.save_slots).toBe(0);
    await expect(sdk.saves.save(0, {})).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(sdk.scores.submit(1)).rejects.toMatchObject({ code: 'leaderboard_disabled', status: 404 });
  });

  it("reports a simulated free player's entitlement, and refuses every call once closed at the limit", async () => {
    const { standIn, sdk } = configured({});
    const entitlement = {
      unlimited: false,
      allowance_seconds: 900,
      used_seconds: 870,
      remaining_seconds: 30,
      limit_reached: false,
      resets_in_seconds: 3600,
      day: '2026-11-28',
    };
    standIn.setEntitlement(entitlement);
    expect((await sdk.init()).entitlement).toEqual(entitlement);
    standIn.close();
    await expect(sdk.saves.list()).rejects.toMatchObject({ code: 'session_over', status: 0 });
    await expect(sdk.init()).rejects.toMatchObject({ code: 'session_over' });
  });
});
