// Deeply nested JSON bodies are refused by a linear pre-scan before anything parses or recurses over them;
// save states keep every depth a state within the size limit can have.
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/http/content.js';
import { nestsDeeperThan } from '../../src/http/json-scan.js';
import { MAX_STATE_BYTES } from '../../src/modules/states/states.schemas.js';
import { devUrl, gameWithPlayer } from '../dev/fixtures.js';
import { eachDialect } from '../helpers/harness.js';

const nestedObjects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const nestedArrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(nestsDeeperThan('[[1]]', 2)).toBe(false);
    expect(nestsDeeperThan('[[1]]', 1)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":[]}}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":{"b":[]}}', 2)).toBe(true);
    expect(nestsDeeperThan('["[[[[", "\\"[[[[", "\\\\", [1]]', 2)).toBe(false);
    expect(nestsDeeperThan('["\\\\"[[[]]]', 2)).toBe(true);
    expect(nestsDeeperThan('[][][][]', 1)).toBe(false);
  });
});

eachDialect('http: deeply nested JSON bodies', (h) => {
  const json = (payload: string) => ({ body: payload, contentType: 'application/json' });

  it('refuses a score whose meta nests 6,000 objects deep with 422, on POST /games/{slug}/scores and on the /dev route', async () => {
    const w = await gameWithPlayer(h);
    const body = `{"score":1,"meta":${nestedObjects(6000)}}`;
    for (const [url, token] of [
      [`/v1/games/${w.game.slug}/scores`, w.token],
      [devUrl.scores(w.game.slug, w.player.id), w.key],
    ] as const) {
      const res = await h.http.post(url, { token, ...json(body) });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.fields).toEqual({
        body: `is nested too deeply (more than ${MAX_JSON_DEPTH} levels of arrays and objects)`,
      });
    }
    expect(await h.ctx.db.selectFrom('scores').select('id').where('game_id', '=', w.game.id).execute()).toEqual([]);
  });

  it('refuses an array nested 10,000 deep on any JSON route with 422', async () => {
    const res = await h.http.post('/v1/auth/login', json(`{"login":${nestedArrays(10_000)},"password":"x"}`));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
  });

  it('keeps a meta nested as deep as its 500 characters allow', async () => {
    const w = await gameWithPlayer(h);
    const meta = `{"a":${nestedArrays(247)}}`; // 500 characters, 248 levels, in a body 249 deep
    const res = await h.http.post(`/v1/games/${w.game.slug}/scores`, {
      token: w.token,
      ...json(`{"score":1,"meta":${meta}}`),
    });
    expect(res.status).toBe(201);
    const over = `{"score":1,"meta":{"a":${nestedArrays(MAX_JSON_DEPTH - 1)}}}`;
    const refused = await h.http.post(`/v1/games/${w.game.slug}/scores`, { token: w.token, ...json(over) });
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields).toHaveProperty('body');
  });

  it('saves a state nested as deep as 262,144 bytes allow and reads it back; one level more is 413 state_too_large unparsed', async () => {
    const w = await gameWithPlayer(h);
    const levels = MAX_STATE_BYTES / 2;
    const saved = await h.http.put(`/v1/games/${w.game.slug}/states/0`, {
      token: w.token,
      ...json(`{"state":${nestedArrays(levels)}}`),
    });
    expect(saved.status).toBe(201);
    expect(saved.body.data.size_bytes).toBe(MAX_STATE_BYTES);
    const read = await h.http.get(`/v1/games/${w.game.slug}/states/0`, { token: w.token });
    expect(read.status).toBe(200);
    expect(read.text).toContain(`"state":${nestedArrays(levels)}`);

    for (const n of [levels + 1, 1_000_000]) {
      const res = await h.http.put(`/v1/games/${w.game.slug}/states/1`, {
        token: w.token,
        ...json(`{"state":${nestedArrays(n)}}`),
      });
      expect(res.status).toBe(413);
      expect(res.body.error).toMatchObject({ code: 'state_too_large', max_bytes: MAX_STATE_BYTES });
    }
    const dev = await h.http.put(devUrl.state(w.game.slug, w.player.id, 1), {
      token: w.key,
      ...json(`{"state":${nestedArrays(levels + 1)}}`),
    });
    expect(dev.status).toBe(413);
    expect(dev.body.error.code).toBe('state_too_large');
  });
});
