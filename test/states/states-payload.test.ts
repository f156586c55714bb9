// Payloads round-trip exactly (every JSON value, any depth), size_bytes is the UTF-8 length of the JSON text,
// and the 262,144-byte limit holds whatever the body looks like on the wire.
import { describe, expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { gameAndPlayer, storedRow } from './fixtures.js';

const MAX = 262_144;
const BODY_LIMIT = 2 * 1024 * 1024;

/** A JSON string state whose JSON text is exactly `bytes` long (ASCII). */
const stringOfBytes = (bytes: number) => 'x'.repeat(bytes - 2);
/** `{"state":<text>}` as a raw body, so that deep values need no JSON.stringify in the test either. */
const rawBody = (stateText: string, extra = '') => `{"state":${stateText}${extra}}`;

eachDialect('states: payload', (h) => {
  async function roundTrip(value: unknown) {
    const w = await gameAndPlayer(h);
    const put = await h.http.put(w.slot(0), { token: w.token, body: { state: value } });
    expect(put.status).toBe(201);
    expect(put.body.data.size_bytes).toBe(Buffer.byteLength(JSON.stringify(value), 'utf8'));
    const got = await h.http.get(w.slot(0), { token: w.token });
    expect(got.status).toBe(200);
    return { w, got };
  }

  describe('states: round trip', () => {
    it.each([
      ['null', null],
      ['true', true],
      ['false', false],
      ['zero', 0],
      ['a negative integer', -42],
      ['a fraction', 0.1],
      ['a negative fraction', -1234.5678],
      ['the largest safe integer', Number.MAX_SAFE_INTEGER],
      ['the smallest safe integer', Number.MIN_SAFE_INTEGER],
      ['a huge number', 1.7976931348623157e308],
      ['a tiny number', 5e-324],
      ['an exponent', 6.02214076e23],
      ['an empty string', ''],
      ['emoji and astral characters', '🎮👾🧙🏽‍♀️ 𝄞 𐍈 🇩🇪'],
      ['right-to-left text with marks', 'שלום עולם \u200f مرحبا بالعالم \u202b'],
      ['NUL and control characters', 'a\u0000b\u0001\u001f\u007f\n\r\t"\\/'],
      ['line and paragraph separators, BOM', '\u2028\u2029\ufeff'],
      ['lone surrogates', '\ud800 \udfff \udbff'],
      ['an empty array', []],
      ['an empty object', {}],
      ['a mixed array', [1, 'two', null, true, { three: [3] }, [[]], -0.5]],
      ['an object with unusual keys', { '': 1, ключ: 2, '🔑': 3, 'a.b': 4, ' ': 5, '\u0000': 6 }],
      [
        'a save game',
        { v: 2, hero: { name: 'Ærwyn', hp: 93.5, pos: [12, -4], flags: { boss: true } }, log: ['a', 'b'] },
      ],
    ])('returns %s exactly as saved', async (_name, value) => {
      const { got } = await roundTrip(value);
      expect(got.body.data.state.state).toEqual(value);
      expect(got.text).toContain(`"state":${JSON.stringify(value)},"created_at"`);
    });

    it('stores a JSON null state as a value: listed, readable, not "missing"', async () => {
      const { w, got } = await roundTrip(null);
      expect(got.body.data.state).toHaveProperty('state', null);
      expect(got.body.data.state.size_bytes).toBe(4);
      expect((await h.http.get(w.list, { token: w.token })).body.data.states).toHaveLength(1);
      expect((await storedRow(h, w.player.id, w.game.id, 0))?.state).toBe('null');
    });

    it('keeps numbers as the doubles JSON.parse reads, written the shortest way', async () => {
      const w = await gameAndPlayer(h);
      await h.http.put(w.slot(0), {
        token: w.token,
        body: rawBody('[12345678901234567890,-1E-2,1.50,1e-400]'),
        contentType: 'application/json',
      });
      const got = await h.http.get(w.slot(0), { token: w.token });
      expect(got.text).toContain('"state":[12345678901234567000,-0.01,1.5,0]');
    });

    it('refuses a number beyond the double range (it would come back as null) with 422', async () => {
      const w = await gameAndPlayer(h);
      for (const text of ['1e400', '{"a":[null,-1e999]}', `${'['.repeat(10_000)}1e400${']'.repeat(10_000)}`]) {
        const res = await h.http.put(w.slot(0), {
          token: w.token,
          body: rawBody(text),
          contentType: 'application/json',
        });
        expect(res.status).toBe(422);
        expect(res.body.error.fields).toHaveProperty('state');
      }
      expect(await storedRow(h, w.player.id, w.game.id, 0)).toBeUndefined();
    });

    it.each([
      ['arrays', 10_000, (d: number) => '['.repeat(d) + ']'.repeat(d)],
      ['objects', 10_000, (d: number) => `${'{"k":'.repeat(d)}"leaf"${'}'.repeat(d)}`],
      ['arrays up to the size limit', MAX / 2, (d: number) => '['.repeat(d) + ']'.repeat(d)],
    ])('round-trips %s nested %i levels deep (far past JSON.stringify recursion)', async (_what, depth, make) => {
      const text = make(depth);
      expect(() => JSON.stringify(JSON.parse(text))).toThrow(RangeError);
      const w = await gameAndPlayer(h);
      const put = await h.http.put(w.slot(0), { token: w.token, body: rawBody(text), contentType: 'application/json' });
      expect(put.status).toBe(201);
      expect(put.body.data.size_bytes).toBe(Buffer.byteLength(text));
      const got = await h.http.get(w.slot(0), { token: w.token });
      expect(got.status).toBe(200);
      expect(got.text).toContain(`"state":${text},"created_at"`);
      expect((await storedRow(h, w.player.id, w.game.id, 0))?.state).toBe(text);
    });

    it('stores the canonical JSON text: whitespace and escapes on the wire do not count', async () => {
      const w = await gameAndPlayer(h);
      const wire = '{ "state" : { "name" : "\\u0041\\u00e9\\ud83c\\udfae" ,\n\t"list" : [ 1 , 2 ] } }';
      const put = await h.http.put(w.slot(0), { token: w.token, body: wire, contentType: 'application/json' });
      expect(put.body.data.size_bytes).toBe(Buffer.byteLength('{"name":"Aé🎮","list":[1,2]}'));
      expect((await storedRow(h, w.player.id, w.game.id, 0))?.state).toBe('{"name":"Aé🎮","list":[1,2]}');
    });
  });

  describe('states: size limit', () => {
    it('accepts exactly 262,144 bytes and refuses 262,145 with 413 state_too_large, writing nothing', async () => {
      const w = await gameAndPlayer(h);
      const atLimit = await h.http.put(w.slot(0), {
        token: w.token,
        body: { state: stringOfBytes(MAX), label: 'full' },
      });
      expect(atLimit.status).toBe(201);
      expect(atLimit.body.data.size_bytes).toBe(MAX);
      const before = await storedRow(h, w.player.id, w.game.id, 0);
      h.clock.advance(5);
      const over = await h.http.put(w.slot(0), {
        token: w.token,
        body: { state: stringOfBytes(MAX + 1), label: 'over' },
      });
      expect(over.status).toBe(413);
      expect(over.body).toEqual({
        ok: false,
        error: { code: 'state_too_large', message: expect.any(String), size_bytes: MAX + 1, max_bytes: MAX },
      });
      expect(await storedRow(h, w.player.id, w.game.id, 0)).toEqual(before);
      const empty = await h.http.put(w.slot(1), { token: w.token, body: { state: stringOfBytes(MAX + 1) } });
      expect(empty.status).toBe(413);
      expect(await storedRow(h, w.player.id, w.game.id, 1)).toBeUndefined();
    });

    it('counts UTF-8 bytes, not characters', async () => {
      const w = await gameAndPlayer(h);
      // '€' is 3 bytes: 87,380 of them and 2 quotes make 262,142 bytes, with 2 more ASCII letters exactly the limit
      const fits = `${'€'.repeat(87_380)}ab`;
      const put = await h.http.put(w.slot(0), { token: w.token, body: { state: fits } });
      expect(put.status).toBe(201);
      expect(put.body.data.size_bytes).toBe(MAX);
      const over = await h.http.put(w.slot(0), { token: w.token, body: { state: '€'.repeat(87_381) } }); // 87,383 characters, 262,145 bytes
      expect(over.status).toBe(413);
      expect(over.body.error.code).toBe('state_too_large');
    });

    it('lets a state at the limit through when its wire form is much larger (escapes, whitespace)', async () => {
      const w = await gameAndPlayer(h);
      const escaped = `"${'\\u0061'.repeat(MAX - 2)}"`; // 1.5 MiB on the wire, 262,144 bytes of JSON
      const put = await h.http.put(w.slot(0), {
        token: w.token,
        body: rawBody(escaped, ', "label": "escaped"'),
        contentType: 'application/json',
      });
      expect(put.status).toBe(201);
      expect(put.body.data.size_bytes).toBe(MAX);
      const pretty = JSON.stringify({ state: Array.from({ length: 20_000 }, (_, i) => i % 10) }, null, 8);
      expect(pretty.length).toBeGreaterThan(MAX);
      const second = await h.http.put(w.slot(1), { token: w.token, body: pretty, contentType: 'application/json' });
      expect(second.status).toBe(201);
      expect(second.body.data.size_bytes).toBe(40_001);
    });

    it('accepts a body of exactly 2 MiB and answers a larger one with 413 state_too_large in the envelope', async () => {
      const w = await gameAndPlayer(h);
      const head = '{"state":"small"';
      const padded = (total: number) => `${head + ' '.repeat(total - head.length - 1)}}`;
      const at = await h.http.put(w.slot(0), {
        token: w.token,
        body: padded(BODY_LIMIT),
        contentType: 'application/json',
      });
      expect(at.status).toBe(201);
      for (const total of [BODY_LIMIT + 1, 5 * BODY_LIMIT]) {
        const res = await h.http.put(w.slot(0), {
          token: w.token,
          body: padded(total),
          contentType: 'application/json',
        });
        expect(res.status).toBe(413);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.body).toEqual({ ok: false, error: { code: 'state_too_large', message: expect.any(String) } });
      }
      expect((await h.http.get(w.slot(0), { token: w.token })).body.data.state.version).toBe(1);
    });

    it('answers a big state that fits the body limit but not the state limit with 413 state_too_large', async () => {
      const w = await gameAndPlayer(h);
      const res = await h.http.put(w.slot(0), { token: w.token, body: { state: { blob: 'z'.repeat(1_000_000) } } });
      expect(res.status).toBe(413);
      expect(res.body.error).toMatchObject({ code: 'state_too_large', size_bytes: 1_000_011 });
    });
  });
});
