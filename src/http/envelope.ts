// The response envelope (docs/api.md, "Everywhere"): schemas for the routes and the OpenAPI document, and the helper handlers return.
import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_CATALOG, type ErrorCode } from './errors.js';

/** `{ok: true, data}` */
export function Ok<D extends TSchema>(data: D) {
  return Type.Object({ ok: Type.Literal(true), data });
}

/** `{ok: true, data, meta}` */
export function OkMeta<D extends TSchema, M extends TSchema>(data: D, meta: M) {
  return Type.Object({ ok: Type.Literal(true), data, meta });
}

export function ok<D>(data: D): { ok: true; data: D };
export function ok<D, M>(data: D, meta: M): { ok: true; data: D; meta: M };
export function ok(data: unknown, meta?: unknown) {
  return meta === undefined ? { ok: true as const, data } : { ok: true as const, data, meta };
}

/** The error envelope for one status, naming the codes a route can answer with it. */
export function errorEnvelope(status: number, codes: ErrorCode[]): TSchema {
  const lines = codes.map((code) => `\`${code}\`: ${ERROR_CATALOG[code].description}`);
  return Type.Object(
    {
      ok: Type.Literal(false),
      error: Type.Object(
        {
          code: codes.length === 1 ? Type.Literal(codes[0]!) : Type.Union(codes.map((c) => Type.Literal(c))),
          message: Type.String(),
        },
        { additionalProperties: true },
      ),
    },
    { description: lines.join('; ') || `HTTP ${status}` },
  );
}

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** `YYYY-MM-DD HH:MM:SS` in UTC. */
export const Timestamp = Type.String({
  description: 'timestamp YYYY-MM-DD HH:MM:SS (UTC)',
  examples: ['2026-11-21 09:30:00'],
});
/** `YYYY-MM-DD` in reset_timezone. */
export const DateString = Type.String({ description: 'date YYYY-MM-DD', examples: ['2026-11-21'] });

/** The largest row id: ids are 32-bit integer columns on PostgreSQL (SQLite's are wider), so a larger one is 422. */
export const MAX_ROW_ID = 2_147_483_647;
/** An integer input naming a row (a player, a token, a key): 1 to MAX_ROW_ID. */
export const RowId = (description?: string) =>
  Type.Integer({ minimum: 1, maximum: MAX_ROW_ID, ...(description ? { description } : {}) });
/** A save slot in a path: 0 to the column's bound (the game's save_slots narrows it further, with 422). */
export const SlotNumber = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_ROW_ID, description });
