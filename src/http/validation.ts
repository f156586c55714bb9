// The validator of every route: Ajv with formats; bodies never coerced, query strings and path parameters coerced;
// and no text input may hold a NUL character or a lone surrogate.
import Ajv, { type AnySchema, type SchemaValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { isCountryCode } from '../lib/countries.js';
import { ILL_FORMED_MESSAGE, isWellFormedString } from '../lib/unicode.js';

/** This service's own formats, and what a field that fails one is told. */
const FORMATS = {
  /** an ISO 3166-1 alpha-2 code in any letter case, or "" (which clears a country) */
  'iso-country': {
    validate: (s: string) => s === '' || isCountryCode(s.toUpperCase()),
    message: 'is not an ISO 3166-1 alpha-2 country code',
  },
} as const;

export function formatMessage(format: unknown): string | undefined {
  return Object.hasOwn(FORMATS, String(format)) ? FORMATS[format as keyof typeof FORMATS].message : undefined;
}

/**
 * The keyword `noNul` also refuses text that is not well-formed Unicode (a lone surrogate, sent as the JSON escape
 * `\ud800` or in a query string): it cannot be stored as UTF-8, and the databases would replace it differently.
 *
 * NUL is never meaningful in a name, a slug or a search, SQLite stores it silently and PostgreSQL refuses it
 * (a 500 from a lookup): every value a schema types as a string refuses it. Free-form JSON (a save state, score meta)
 * is untyped in the schemas and keeps it; it is stored as JSON text, where it is escaped.
 */
const rejectNul: SchemaValidateFunction = (_enabled: boolean, data: string) => {
  if (!data.includes('\u0000') && isWellFormedString(data)) return true;
  const message = data.includes('\u0000') ? 'must not contain a NUL character' : ILL_FORMED_MESSAGE;
  rejectNul.errors = [{ keyword: 'noNul', message, params: {} }];
  return false;
};

function createAjv(coerceTypes: boolean): Ajv.default {
  const ajv = new Ajv.default({
    allErrors: true,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
    coerceTypes,
  });
  addFormats.default(ajv);
  for (const [name, format] of Object.entries(FORMATS))
    ajv.addFormat(name, { type: 'string', validate: format.validate });
  ajv.addKeyword({ keyword: 'noNul', type: 'string', schemaType: 'boolean', validate: rejectNul, errors: true });
  return ajv;
}

const NESTED = ['properties', 'patternProperties', '$defs', 'definitions'] as const;
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SINGLE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'] as const;

/** A copy of `schema` in which every string-typed node also carries `noNul` (the route's own schema stays as documented). */
export function withoutNul(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const node = { ...(schema as Record<string, unknown>) };
  const type = node.type;
  if (type === 'string' || (Array.isArray(type) && type.includes('string'))) node.noNul = true;
  for (const key of NESTED) {
    const children = node[key];
    if (children && typeof children === 'object') {
      node[key] = Object.fromEntries(Object.entries(children).map(([name, child]) => [name, withoutNul(child)]));
    }
  }
  for (const key of LISTS) if (Array.isArray(node[key])) node[key] = (node[key] as unknown[]).map(withoutNul);
  for (const key of SINGLE) if (node[key] !== undefined) node[key] = withoutNul(node[key]);
  return node;
}

export function validatorCompiler() {
  const body = createAjv(false);
  const query = createAjv(true);
  return ({ schema, httpPart }: { schema: object; httpPart?: string }) =>
    (httpPart === 'body' ? body : query).compile(withoutNul(schema) as AnySchema);
}
