import { describe, expect, it } from 'vitest';
import {
  JsonText,
  deepJsonSerializerCompiler,
  hasNonFiniteNumber,
  stringifyJson,
  stringifyIteratively,
  utf8Length,
} from './json-text.js';

const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}[1,"x",null]${'}'.repeat(depth)}`;

describe('states: JSON text', () => {
  const samples: unknown[] = [
    null,
    true,
    false,
    0,
    -0,
    -17,
    3.25,
    1e21,
    Number.MAX_SAFE_INTEGER,
    5e-324,
    '',
    'plain',
    'quote " backslash \\ newline \n tab \t nul \u0000 del \u007f',
    'emoji 🎮 astral 𝄞 rtl שלום عربى combining é',
    'lone \ud800 surrogate \udfff',
    [],
    {},
    [1, [2, [3, {}]], 'x', null, false],
    { b: 1, a: { c: [true, null] }, '': 'empty key', 2: 'integer key', 1: 'sorted first' },
    JSON.parse('{"__proto__": {"x": 1}, "constructor": {"prototype": 2}}'),
    { skipped: undefined, fn: () => 1, kept: 1 },
    [undefined, () => 1, Symbol('s')],
    { date: new Date(0), nan: NaN, inf: -Infinity },
    [new Number(3), new String('s'), new Boolean(false)],
  ];

  it.each(samples.map((value) => [JSON.stringify(value), value]))(
    'writes %s as JSON.stringify does',
    (_text, value) => {
      expect(stringifyIteratively(value)).toBe(JSON.stringify(value));
      expect(stringifyJson(value)).toBe(JSON.stringify(value));
    },
  );

  it('answers undefined for a top-level value JSON.stringify skips', () => {
    expect(stringifyIteratively(undefined)).toBeUndefined();
    expect(stringifyJson(undefined)).toBeUndefined();
  });

  it('writes values nested far deeper than JSON.stringify can (131,072 levels)', () => {
    for (const text of [nestedArrays(131_072), nestedObjects(50_000)]) {
      const value = JSON.parse(text);
      expect(() => JSON.stringify(value)).toThrow(RangeError);
      expect(stringifyJson(value)).toBe(text);
    }
  });

  it('still refuses what JSON.stringify refuses (cycles, bigint)', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => stringifyJson(cycle)).toThrow(TypeError);
    expect(() => stringifyIteratively([1n])).toThrow(TypeError);
  });

  it('measures UTF-8 bytes, not UTF-16 units', () => {
    expect(utf8Length('"é"')).toBe(4);
    expect(utf8Length('"🎮"')).toBe(6);
    expect(utf8Length(JSON.stringify('\ud800'))).toBe(8); // a lone surrogate is written as the escape \ud800
  });

  it('finds numbers JSON cannot write back, at any depth', () => {
    expect(hasNonFiniteNumber(JSON.parse('{"a":[1,2,{"b":1e400}]}'))).toBe(true);
    expect(hasNonFiniteNumber(JSON.parse('-1e999'))).toBe(true);
    expect(hasNonFiniteNumber(JSON.parse(nestedArrays(100_000).replace('[]', '[1e400]')))).toBe(true);
    expect(hasNonFiniteNumber(JSON.parse('{"a":[1.7976931348623157e308,null,"1e400",5e-324,1e-400]}'))).toBe(false);
  });

  it('writes a stored JSON text into a one-state answer as it is, and as its value anywhere else', () => {
    const serialize = deepJsonSerializerCompiler();
    for (const text of samples
      .map((value) => stringifyJson(value))
      .filter((t): t is string => t !== undefined)
      .concat(nestedObjects(50_000))) {
      const body = {
        ok: true,
        data: { state: { slot: 0, label: 'a "label"', version: 3, state: new JsonText(text), updated_at: 'x' } },
      };
      const out = serialize(body);
      expect(out).toBe(
        `{"ok":true,"data":{"state":{"slot":0,"label":"a \\"label\\"","version":3,"state":${text},"updated_at":"x"}}}`,
      );
      if (text.length < 1000)
        expect(JSON.parse(out)).toEqual({
          ok: true,
          data: { state: { slot: 0, label: 'a "label"', version: 3, updated_at: 'x', state: JSON.parse(text) } },
        });
    }
    // not the one-state shape (something after data): the text's value, through toJSON
    const withMeta = { ok: true, data: { state: { slot: 1, state: new JsonText('[1,{"a":null}]') } }, meta: { n: 1 } };
    expect(serialize(withMeta)).toBe('{"ok":true,"data":{"state":{"slot":1,"state":[1,{"a":null}]}},"meta":{"n":1}}');
    expect(serialize({ ok: true, data: { state: { state: new JsonText('{"b":2}') } } })).toBe(
      '{"ok":true,"data":{"state":{"state":{"b":2}}}}',
    );
    expect(serialize({ ok: true, data: { state: { state: new JsonText('7'), slot: 2 } } })).toBe(
      '{"ok":true,"data":{"state":{"state":7,"slot":2}}}',
    );
    expect(serialize({ ok: false, error: { code: 'not_found' } })).toBe('{"ok":false,"error":{"code":"not_found"}}');
  });
});
