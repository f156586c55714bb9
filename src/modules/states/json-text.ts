// JSON text of save states at any nesting depth: V8's JSON.stringify recurses and overflows its stack near 4,000 levels,
// while a 256 KB state can nest 131,072 levels deep. JSON.parse has no such limit.

type Frame =
  | { kind: 'array'; items: readonly unknown[]; next: number }
  | { kind: 'object'; holder: Record<string, unknown>; keys: string[]; next: number; wrote: boolean };

/** What JSON.stringify would make of `value` before writing it (toJSON, boxed primitives); undefined when it would skip it. */
function prepare(value: unknown, key: string): unknown {
  if (value !== null && (typeof value === 'object' || typeof value === 'bigint')) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, key);
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) value = value.valueOf();
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  return value;
}

/** Writes a prepared value: a scalar at once, a container by opening it and pushing a frame. */
function open(value: unknown, out: string[], stack: Frame[]): void {
  if (value === null || typeof value !== 'object') {
    out.push(JSON.stringify(value) ?? 'null'); // strings, numbers (non-finite → null), booleans, null; a bigint throws as JSON.stringify does
  } else if (Array.isArray(value)) {
    out.push('[');
    stack.push({ kind: 'array', items: value, next: 0 });
  } else {
    out.push('{');
    stack.push({
      kind: 'object',
      holder: value as Record<string, unknown>,
      keys: Object.keys(value),
      next: 0,
      wrote: false,
    });
  }
}

/** JSON.stringify with an explicit stack instead of recursion (stringifyJson's fallback; tests compare the two). */
export function stringifyIteratively(root: unknown): string | undefined {
  const first = prepare(root, '');
  if (first === undefined) return undefined;
  const out: string[] = [];
  const stack: Frame[] = [];
  open(first, out, stack);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.kind === 'array') {
      if (frame.next >= frame.items.length) {
        out.push(']');
        stack.pop();
        continue;
      }
      const index = frame.next++;
      if (index > 0) out.push(',');
      const item = prepare(frame.items[index], String(index));
      if (item === undefined) out.push('null');
      else open(item, out, stack);
    } else {
      if (frame.next >= frame.keys.length) {
        out.push('}');
        stack.pop();
        continue;
      }
      const key = frame.keys[frame.next++]!;
      const item = prepare(frame.holder[key], key);
      if (item === undefined) continue;
      out.push(frame.wrote ? ',' : '', JSON.stringify(key), ':');
      frame.wrote = true;
      open(item, out, stack);
    }
  }
  return out.join('');
}

/**
 * JSON.stringify(value) for data at any depth: the native function first, an explicit stack when V8's recursion
 * runs out (a RangeError). The output is the same text either way.
 */
export function stringifyJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return stringifyIteratively(value);
  }
}

/**
 * True when a parsed JSON value holds a number JSON cannot write back: a literal beyond the double range such as
 * 1e400 parses to Infinity, which JSON.stringify would turn into null. Walks with an explicit stack (any depth).
 */
export function hasNonFiniteNumber(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return true;
    } else if (item !== null && typeof item === 'object') {
      for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push(child);
    }
  }
  return false;
}

/** UTF-8 length of a JSON text: `size_bytes` of a state. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * A JSON text standing where a value goes: a stored state, which is JSON text already (what stringifyJson wrote when
 * it was saved). deepJsonSerializerCompiler writes it as it is in a one-state answer; anything else that serializes
 * it gets the parsed value (toJSON), so the output is the same either way.
 */
export class JsonText {
  constructor(readonly text: string) {}
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

interface OneState {
  ok: true;
  data: { state: Record<string, unknown> & { state: unknown } };
}

/** `{ok, data: {state: {…, state: JsonText, …}}}` with nothing after `data` and `state`. */
function isOneState(body: unknown): body is OneState {
  const data = (body as Partial<OneState> | null)?.data;
  return (
    data?.state?.state instanceof JsonText &&
    Object.keys(body as object).at(-1) === 'data' &&
    Object.keys(data).length === 1
  );
}

/** The one-state answer with the stored text in the place of its `state` key: the fields before and after are written as usual. */
function spliceOneState(body: OneState): string {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  let past = false;
  for (const [key, value] of Object.entries(body.data.state)) {
    if (key === 'state') past = true;
    else (past ? after : before)[key] = value;
  }
  const head = JSON.stringify({ ...body, data: { state: before } }).slice(0, -3); // …{"slot":0,…,"size_bytes":9
  const tail = JSON.stringify(after).slice(1, -1); // "created_at":"…","updated_at":"…"
  const text = (body.data.state.state as JsonText).text;
  return `${head}${Object.keys(before).length > 0 ? ',' : ''}"state":${text}${tail ? `,${tail}` : ''}}}}`;
}

/**
 * A route serializer compiler for responses that carry state payloads: fast-json-stringify hands values of an
 * open schema (`state`) to JSON.stringify, which overflows on deep states. Every field the handler returns is
 * written, so those handlers return exactly the documented shape. The answer of GET …/states/{slot} splices the
 * stored text in instead of parsing up to 256 KB only to write the same text again (a tenth of that route's time,
 * bench/RESULTS.md).
 */
export function deepJsonSerializerCompiler() {
  return (body: unknown): string => {
    if (isOneState(body)) return spliceOneState(body);
    return stringifyJson(body) ?? 'null';
  };
}
