// Reading the OpenAPI document in tests: which fields of a schema carry no description.

export type Schema = {
  type?: string;
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
};

/**
 * Dotted paths of the properties under `schema` that carry no description, at any depth: into objects, array items
 * and each option of a union. A property counts as described when it, or one option of its union, has one.
 */
export function undescribed(schema: Schema, at = ''): string[] {
  const missing: string[] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const path = at ? `${at}.${name}` : name;
    if (!child.description && !child.anyOf?.some((option) => option.description)) missing.push(path);
    missing.push(...undescribed(child, path));
  }
  if (schema.items) missing.push(...undescribed(schema.items, `${at}[]`));
  for (const option of schema.anyOf ?? []) missing.push(...undescribed(option, at));
  return missing;
}

/**
 * The document with every local `$ref` (#/components/…) replaced by what it names, so that tests can read a route's
 * schemas in place. The pipeline's components hold no cycles.
 */
export function dereferenced<T>(doc: T): T {
  const root = doc as Record<string, unknown>;
  const resolve = (ref: string): unknown =>
    ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (node, key) => (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
        root,
      );
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const { $ref, ...rest } = node as Record<string, unknown>;
    if (typeof $ref === 'string') return { ...(visit(resolve($ref)) as object), ...(visit(rest) as object) };
    return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, visit(value)]));
  };
  return visit(doc) as T;
}
