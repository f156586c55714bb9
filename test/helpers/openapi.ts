// Reading the OpenAPI document in tests: which fields of a schema carry no description.

export type Schema = { type?: string; description?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };

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
