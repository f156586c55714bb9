import { describe, expect, it } from 'vitest';
import { apiCallFor, resultFor } from './game-api.js';

const call = (method: Parameters<typeof apiCallFor>[2], params: unknown, slug = 'tile-merge') =>
  apiCallFor(slug, 'ps_session', method, params);

describe('shell: API calls for a game', () => {
  it('maps each SDK method to a route of the game it hosts', () => {
    expect(call('saves.list', {})).toEqual({ method: 'GET', path: '/v1/games/tile-merge/states' });
    expect(call('saves.load', { slot: 2 })).toEqual({ method: 'GET', path: '/v1/games/tile-merge/states/2' });
    expect(call('saves.delete', { slot: 0 })).toEqual({ method: 'DELETE', path: '/v1/games/tile-merge/states/0' });
    expect(call('saves.save', { slot: 1, state: { a: 1 }, label: 'x', expected_version: 0 })).toEqual({
      method: 'PUT',
      path: '/v1/games/tile-merge/states/1',
      body: { state: { a: 1 }, label: 'x', expected_version: 0 },
    });
    expect(call('leaderboard.read', { board: 'main', period: 'week', limit: 5, offset: 10 })).toEqual({
      method: 'GET',
      path: '/v1/games/tile-merge/leaderboard',
      query: { board: 'main', period: 'week', limit: '5', offset: '10' },
    });
    expect(call('identity.token', { slug: 'other-game' })).toEqual({
      method: 'POST',
      path: '/v1/games/tile-merge/identity-token',
    });
  });

  it('ties a score to the play session the shell holds, whatever the game says', () => {
    expect(
      call('scores.submit', { score: 250, board: 'main', meta: { moves: 3 }, play_session: 'ps_forged', player_id: 9 }),
    ).toEqual({
      method: 'POST',
      path: '/v1/games/tile-merge/scores',
      body: { score: 250, board: 'main', meta: { moves: 3 }, play_session: 'ps_session' },
    });
  });

  it('never leaves the game: no slug, path or player in the parameters reaches the URL', () => {
    const attempts = [
      call('saves.load', { slot: '../../../me/tokens' }),
      call('saves.load', { slot: 1, slug: 'other-game' }),
      call('leaderboard.read', { board: 'main', path: '/v1/me' }),
    ];
    expect(attempts[0]).toHaveProperty('error.code', 'bad_request');
    expect(attempts[1]).toEqual({ method: 'GET', path: '/v1/games/tile-merge/states/1' });
    expect(attempts[2]).toEqual({ method: 'GET', path: '/v1/games/tile-merge/leaderboard', query: { board: 'main' } });
    expect(call('saves.list', {}, 'a/b?c')).toEqual({ method: 'GET', path: '/v1/games/a%2Fb%3Fc/states' });
  });

  it('refuses malformed parameters and unknown methods', () => {
    expect(call('saves.save', { slot: 1 })).toHaveProperty('error.code', 'bad_request');
    expect(call('saves.save', { slot: 1, state: 1, expected_version: '2' })).toHaveProperty(
      'error.code',
      'bad_request',
    );
    expect(call('scores.submit', { score: '10' })).toHaveProperty('error.code', 'bad_request');
    expect(call('scores.submit', { score: 1, meta: [1] })).toHaveProperty('error.code', 'bad_request');
    expect(call('leaderboard.read', { limit: 'all' })).toHaveProperty('error.code', 'bad_request');
    expect(call('me.delete' as never, {})).toHaveProperty('error.code', 'unknown_method');
  });
});

describe('shell: API answers for a game', () => {
  it('unwraps data, and turns an empty slot into null', () => {
    expect(
      resultFor('saves.list', {
        status: 200,
        body: { ok: true, data: { states: [{ slot: 0 }] }, meta: { save_slots: 3 } },
      }),
    ).toEqual({ result: [{ slot: 0 }] });
    expect(
      resultFor('saves.load', { status: 200, body: { ok: true, data: { state: { slot: 1, version: 2 } } } }),
    ).toEqual({ result: { slot: 1, version: 2 } });
    expect(
      resultFor('saves.load', { status: 404, body: { ok: false, error: { code: 'not_found', message: 'empty' } } }),
    ).toEqual({ result: null });
    expect(
      resultFor('saves.save', { status: 201, body: { ok: true, data: { slot: 1, version: 1, created: true } } }),
    ).toEqual({ result: { slot: 1, version: 1, created: true } });
  });

  it('merges the leaderboard meta with its rows', () => {
    const body = {
      ok: true,
      data: { leaderboard: [{ rank: 1 }], me: { rank: 1, best: 5 } },
      meta: { board: 'main', period: 'all', order: 'asc', unit: 'ms', limit: 10, offset: 0 },
    };
    expect(resultFor('leaderboard.read', { status: 200, body })).toEqual({
      result: {
        board: 'main',
        period: 'all',
        order: 'asc',
        unit: 'ms',
        limit: 10,
        offset: 0,
        rows: [{ rank: 1 }],
        me: { rank: 1, best: 5 },
      },
    });
  });

  it('passes the API error on with its status and extra fields', () => {
    const body = { ok: false, error: { code: 'version_conflict', message: 'stale', current_version: 7 } };
    expect(resultFor('saves.save', { status: 409, body })).toEqual({
      error: { code: 'version_conflict', message: 'stale', current_version: 7, status: 409 },
    });
    expect(resultFor('scores.submit', { status: 502, body: undefined })).toEqual({
      error: { code: 'network_error', message: 'The service answered HTTP 502', status: 502 },
    });
  });
});
