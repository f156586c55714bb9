import { describe, expect, it, vi } from 'vitest';
import { Client, createSdk, isSdkError } from './client.js';
import {
  PROTOCOL,
  event,
  failure,
  isRequestMessage,
  isShellMessage,
  success,
  type RequestMessage,
} from './protocol.js';

function setup(options: { timeoutMs?: number } = {}) {
  const sent: RequestMessage[] = [];
  const timers: Array<{ fn: () => void; cleared: boolean }> = [];
  const client = new Client({
    post: (message) => sent.push(message),
    timeoutMs: options.timeoutMs,
    setTimer: (fn) => {
      timers.push({ fn, cleared: false });
      return timers.length - 1;
    },
    clearTimer: (handle) => {
      timers[handle as number]!.cleared = true;
    },
  });
  return { client, sdk: createSdk(client), sent, timers };
}

const entitlement: GamePlatform.Entitlement = {
  unlimited: false,
  allowance_seconds: 900,
  used_seconds: 30,
  remaining_seconds: 870,
  limit_reached: false,
  resets_in_seconds: 3600,
  day: '2026-11-21',
};

describe('sdk: requests and responses', () => {
  it('sends a typed envelope with increasing ids and resolves with the matching result', async () => {
    const { client, sdk, sent } = setup();
    const first = sdk.saves.load(1);
    const second = sdk.scores.submit(420, { board: 'main' });
    expect(sent).toEqual([
      { protocol: PROTOCOL, type: 'request', id: 1, method: 'saves.load', params: { slot: 1 } },
      { protocol: PROTOCOL, type: 'request', id: 2, method: 'scores.submit', params: { board: 'main', score: 420 } },
    ]);
    client.receive(success(2, { accepted: true }));
    client.receive(success(1, null));
    await expect(second).resolves.toEqual({ accepted: true });
    await expect(first).resolves.toBeNull();
    expect(client.waiting).toBe(0);
  });

  it('rejects with the API error code, status and extra fields', async () => {
    const { client, sdk } = setup();
    const saving = sdk.saves.save(0, { level: 2 }, { expected_version: 3 });
    client.receive(failure(1, { code: 'version_conflict', message: 'stale', status: 409, current_version: 4 }));
    const error = await saving.catch((e: unknown) => e);
    expect(sdk.isError(error)).toBe(true);
    expect(error).toMatchObject({ name: 'GamePlatformError', code: 'version_conflict', status: 409, message: 'stale' });
    expect((error as GamePlatform.SdkError).details.current_version).toBe(4);
  });

  it('times out a request the shell never answers, and drops a late answer', async () => {
    const { client, sdk, timers } = setup({ timeoutMs: 100 });
    const reading = sdk.leaderboard.read({ period: 'week' });
    timers[0]!.fn();
    await expect(reading).rejects.toMatchObject({ code: 'timeout' });
    expect(client.receive(success(1, { rows: [] }))).toBe(true);
    expect(client.waiting).toBe(0);
  });

  it('clears the timer of an answered request', () => {
    const { client, sdk, timers } = setup();
    void sdk.saves.list();
    client.receive(success(1, []));
    expect(timers[0]!.cleared).toBe(true);
  });

  it('refuses bad arguments without asking the shell', async () => {
    const { sdk, sent } = setup();
    await expect(sdk.saves.load(-1)).rejects.toMatchObject({ code: 'bad_request', status: 0 });
    await expect(sdk.saves.save(1.5, {})).rejects.toMatchObject({ code: 'bad_request' });
    await expect(sdk.saves.save(0, undefined)).rejects.toMatchObject({ code: 'bad_request' });
    await expect(sdk.scores.submit(1.25)).rejects.toMatchObject({ code: 'bad_request' });
    expect(sent).toEqual([]);
  });

  it('sends only the options a game set', () => {
    const { sdk, sent } = setup();
    void sdk.saves.save(2, [1, 2], { label: 'Level 3', expected_version: undefined, ...({ sneaky: true } as object) });
    expect(sent[0]!.params).toEqual({ slot: 2, state: [1, 2], label: 'Level 3' });
  });

  it('rejects every call with no_shell outside the play shell', async () => {
    const sdk = createSdk(new Client({}));
    const error = await sdk.init().catch((e: unknown) => e);
    expect(isSdkError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'no_shell' });
  });
});

describe('sdk: events', () => {
  it('delivers events to their handlers until they unsubscribe', () => {
    const { client, sdk } = setup();
    const seen: unknown[] = [];
    const stop = sdk.on('entitlement', (data) => seen.push(data));
    sdk.on('limit', (data) => seen.push(data.reason));
    client.receive(event('entitlement', entitlement));
    client.receive(event('limit', { reason: 'limit', entitlement }));
    stop();
    client.receive(event('entitlement', entitlement));
    expect(seen).toEqual([entitlement, 'limit']);
  });

  it('delivers pause with its reason and resume, for a game taken over by another tab and taken back', () => {
    const { client, sdk } = setup();
    const seen: string[] = [];
    sdk.on('pause', (data) => seen.push(`pause:${data.reason}`));
    sdk.on('resume', (data) => seen.push(`resume:${data.reason}`));
    client.receive(event('pause', { reason: 'replaced' }));
    client.receive(event('resume', { reason: 'replaced' }));
    client.receive(event('pause', { reason: 'limit' }));
    expect(seen).toEqual(['pause:replaced', 'resume:replaced', 'pause:limit']);
  });

  it('keeps calling other handlers when one throws', () => {
    const onHandlerError = vi.fn();
    const client = new Client({ post: () => undefined, onHandlerError });
    const calls: string[] = [];
    client.on('pause', () => {
      throw new Error('boom');
    });
    client.on('pause', () => calls.push('second'));
    client.receive(event('pause', { reason: 'limit' }));
    expect(calls).toEqual(['second']);
    expect(onHandlerError).toHaveBeenCalledOnce();
  });

  it('refuses to listen to an unknown event', () => {
    const { sdk } = setup();
    expect(() => sdk.on('nope' as GamePlatform.EventName, () => undefined)).toThrow(TypeError);
  });
});

describe('sdk: signed out while playing', () => {
  const signedOut = { code: 'unauthenticated', message: 'signed out', status: 401 };

  it('holds a call the API refused with 401 and sends it once more, once, after the shell says the player is back', async () => {
    const { client, sdk, sent, timers } = setup();
    let settled = false;
    const submitting = sdk.scores.submit(79, { board: 'main' }).finally(() => {
      settled = true;
    });
    client.receive(event('pause', { reason: 'signed_out' })); // the shell says so before it answers
    client.receive(failure(1, signedOut));
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(client.waiting).toBe(1);
    expect(timers[0]!.cleared).toBe(true); // no timeout while the player logs in

    client.receive(event('resume', { reason: 'replaced' })); // not a login: nothing is sent
    expect(sent).toHaveLength(1);
    client.receive(event('resume', { reason: 'signed_in' }));
    expect(sent[1]).toEqual({ ...sent[0], id: 2 });
    client.receive(event('resume', { reason: 'signed_in' })); // a second login sends nothing twice
    expect(sent).toHaveLength(2);
    client.receive(success(2, { accepted: true, score: 79 }));
    await expect(submitting).resolves.toEqual({ accepted: true, score: 79 });
    expect(client.waiting).toBe(0);
  });

  it('rejects a held call refused with 401 a second time', async () => {
    const { client, sdk } = setup();
    const saving = sdk.saves.save(0, { cells: [] });
    client.receive(event('pause', { reason: 'signed_out' }));
    client.receive(failure(1, signedOut));
    client.receive(event('resume', { reason: 'signed_in' }));
    client.receive(failure(2, signedOut));
    await expect(saving).rejects.toMatchObject({ code: 'unauthenticated', status: 401 });
  });

  it('rejects a 401 at once where the shell asks nobody to log in (a preview)', async () => {
    const { client, sdk } = setup();
    const submitting = sdk.scores.submit(5);
    client.receive(failure(1, signedOut));
    await expect(submitting).rejects.toMatchObject({ code: 'unauthenticated', status: 401 });
    expect(client.waiting).toBe(0);
  });
});

describe('sdk: quit', () => {
  it('tells the shell it may remove the game once every quit handler has settled', async () => {
    const { client, sdk, sent } = setup();
    let finishSave: () => void = () => undefined;
    sdk.on('quit', () => new Promise<void>((resolve) => (finishSave = resolve)));
    sdk.on('quit', () => {
      throw new Error('a handler that fails does not hold the quit up');
    });
    client.receive(event('quit', { reason: 'quit' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent.map((m) => m.method)).toEqual([]);
    finishSave();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent.map((m) => m.method)).toEqual(['quit.done']);
  });
});

describe('sdk: message guards', () => {
  it('recognises only well-formed shell messages', () => {
    expect(isShellMessage(success(1, null))).toBe(true);
    expect(isShellMessage(failure(3, { code: 'x', message: 'y', status: 400 }))).toBe(true);
    expect(isShellMessage(event('pause', { reason: 'limit' }))).toBe(true);
    expect(isShellMessage(event('quit', { reason: 'quit' }))).toBe(true);
    for (const bad of [
      null,
      'text',
      { protocol: 'other', type: 'response', id: 1, ok: true, result: 1 },
      { protocol: PROTOCOL, type: 'response', id: 0, ok: true, result: 1 },
      { protocol: PROTOCOL, type: 'response', id: 1, ok: false },
      { protocol: PROTOCOL, type: 'event', event: 'reload' },
      { protocol: PROTOCOL, type: 'request', id: 1, method: 'init', params: {} },
    ]) {
      expect(isShellMessage(bad)).toBe(false);
    }
  });

  it('recognises only well-formed requests', () => {
    expect(isRequestMessage({ protocol: PROTOCOL, type: 'request', id: 7, method: 'saves.list', params: {} })).toBe(
      true,
    );
    for (const bad of [
      { protocol: PROTOCOL, type: 'request', id: '7', method: 'saves.list', params: {} },
      { protocol: PROTOCOL, type: 'request', id: 7, method: 'saves.list', params: [] },
      { protocol: PROTOCOL, type: 'request', id: 1.5, method: 'x' },
      { type: 'request', id: 1, method: 'init' },
    ]) {
      expect(isRequestMessage(bad)).toBe(false);
    }
  });
});
