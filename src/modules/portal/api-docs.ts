// The API reference at /docs: server-rendered from the service's own OpenAPI document (the one at /v1/openapi.json),
// in the portal's layout and stylesheet. A few kilobytes of HTML instead of Swagger UI's 1.7 MB bundle; no script needed.
import { escapeHtml } from './html.js';

type Json = Record<string, any>;

/** Inline Markdown of the document's descriptions: `code`, **strong**, *emphasis* and [links](url). */
export function inlineMarkdown(text: string): string {
  const parts = text.split(/(`[^`]*`)/);
  return parts
    .map((part) => {
      if (part.startsWith('`') && part.endsWith('`') && part.length > 1)
        return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      return escapeHtml(part)
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
        .replace(/\[([^\]]+)\]\(((?:https?:\/\/|\/|#)[^)\s]*)\)/g, '<a href="$2">$1</a>');
    })
    .join('');
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

/** Block Markdown of the document's description: headings (one level below the page's), lists, tables, paragraphs. */
export function blockMarkdown(text: string, headingLevel = 2): string {
  const out: string[] = [];
  const lines = text.trim().split('\n');
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min(6, headingLevel + heading[1]!.length - 2);
      out.push(`<h${level}>${inlineMarkdown(heading[2]!)}</h${level}>`);
      i++;
    } else if (line.startsWith('|')) {
      const rows: string[] = [];
      while (i < lines.length && lines[i]!.startsWith('|')) rows.push(lines[i++]!);
      const [head, , ...body] = rows;
      out.push(
        `<div class="table-wrap"><table><thead><tr>${cells(head!)
          .map((c) => `<th scope="col">${inlineMarkdown(c)}</th>`)
          .join('')}</tr></thead><tbody>` +
          body
            .map(
              (r) =>
                `<tr>${cells(r)
                  .map((c) => `<td>${inlineMarkdown(c)}</td>`)
                  .join('')}</tr>`,
            )
            .join('') +
          '</tbody></table></div>',
      );
    } else if (/^\s*- /.test(line)) {
      const items: string[] = [];
      while (i < lines.length && lines[i]!.trim()) {
        if (/^\s*- /.test(lines[i]!)) items.push(lines[i]!.replace(/^\s*- /, ''));
        else items[items.length - 1] += ` ${lines[i]!.trim()}`;
        i++;
      }
      out.push(`<ul>${items.map((item) => `<li>${inlineMarkdown(item)}</li>`).join('')}</ul>`);
    } else {
      const para: string[] = [];
      while (i < lines.length && lines[i]!.trim() && !/^(#|\||\s*- )/.test(lines[i]!)) para.push(lines[i++]!.trim());
      out.push(`<p>${inlineMarkdown(para.join(' '))}</p>`);
    }
  }
  return out.join('\n');
}

const refName = (ref: string) => ref.split('/').pop() ?? ref;
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** A schema's type in words: `string`, `integer or null`, `array of Game` (a named schema links to its definition). */
function typeLabel(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
  }
  if (schema.const !== undefined) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) {
    const enums = union.every((s: Json) => Array.isArray(s.enum) && s.enum.length === 1);
    if (enums)
      return `one of ${union.map((s: Json) => `<code>${escapeHtml(JSON.stringify(s.enum[0]))}</code>`).join(', ')}`;
    return union.map((s: Json) => typeLabel(s)).join(' or ');
  }
  if (Array.isArray(schema.enum)) {
    return schema.enum.length === 1
      ? `<code>${escapeHtml(JSON.stringify(schema.enum[0]))}</code>`
      : `one of ${schema.enum.map((v: unknown) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(', ')}`;
  }
  const type = [schema.type].flat().filter(Boolean).join(' or ') || 'any';
  if (type === 'array') return `array of ${typeLabel(schema.items)}`;
  if (
    type === 'object' &&
    schema.additionalProperties &&
    typeof schema.additionalProperties === 'object' &&
    !schema.properties
  ) {
    return `object of ${typeLabel(schema.additionalProperties)}`;
  }
  return escapeHtml(schema.format ? `${type} (${schema.format})` : type);
}

/** The description of a schema, looking into a nullable union (`anyOf [string, null]`) for it. */
function describe(schema: Json): string | undefined {
  if (typeof schema.description === 'string') return schema.description;
  for (const s of schema.anyOf ?? schema.oneOf ?? []) if (typeof s.description === 'string') return s.description;
  return undefined;
}

function constraints(schema: Json): string[] {
  const all = [schema, ...(schema.anyOf ?? [])] as Json[];
  const out: string[] = [];
  for (const s of all) {
    if (s.minLength !== undefined || s.maxLength !== undefined)
      out.push(`length ${s.minLength ?? 0}–${s.maxLength ?? '∞'}`);
    if (s.minimum !== undefined || s.maximum !== undefined) out.push(`${s.minimum ?? '−∞'} to ${s.maximum ?? '∞'}`);
    if (s.pattern !== undefined) out.push(`pattern <code>${escapeHtml(String(s.pattern))}</code>`);
    if (s.default !== undefined) out.push(`default <code>${escapeHtml(JSON.stringify(s.default))}</code>`);
    if (s.maxItems !== undefined) out.push(`at most ${s.maxItems} items`);
  }
  return out;
}

/** The inline object a schema describes (itself, its array's items, or a nullable union's object), if any. */
function inlineObject(schema: Json): Json | null {
  if (schema.$ref) return null;
  if (schema.properties) return schema;
  if (schema.type === 'array' && schema.items && !schema.items.$ref && schema.items.properties) return schema.items;
  for (const s of schema.anyOf ?? []) if (s.properties) return s;
  return null;
}

/** An object's fields as a nested list: name, type, required, description and limits. */
function fieldsHtml(schema: Json, depth = 0): string {
  const props = Object.entries((schema.properties ?? {}) as Record<string, Json>);
  if (!props.length) return '';
  const required = new Set<string>(schema.required ?? []);
  return `<ul class="schema">${props
    .map(([name, prop]) => {
      const description = describe(prop);
      const limits = constraints(prop);
      const nested = depth < 6 ? inlineObject(prop) : null;
      return (
        `<li><code class="field-name">${escapeHtml(name)}</code> <span class="schema-type">${typeLabel(prop)}</span>` +
        (required.has(name) ? ' <span class="badge">required</span>' : '') +
        (description ? ` — ${inlineMarkdown(description)}` : '') +
        (limits.length ? ` <span class="muted">(${limits.join('; ')})</span>` : '') +
        (nested ? fieldsHtml(nested, depth + 1) : '') +
        '</li>'
      );
    })
    .join('')}</ul>`;
}

/** A body's schema: its fields when it is an object, else its type. */
function bodyHtml(schema: Json | undefined): string {
  if (!schema) return '';
  const object = inlineObject(schema);
  if (object) return fieldsHtml(object);
  return `<p>${typeLabel(schema)}</p>`;
}

/** A success body: the envelope's `data` (and `meta`) rather than `{ok, data}` itself. */
function successHtml(content: Json | undefined): string {
  if (!content) return '';
  const [type, media] = Object.entries(content)[0] ?? [];
  const schema = (media as Json | undefined)?.schema as Json | undefined;
  if (!schema) return '';
  if (type !== 'application/json')
    return `<p><code>${escapeHtml(String(type))}</code>${schema.description ? ` — ${inlineMarkdown(schema.description)}` : ''}</p>`;
  if (schema.properties?.ok && (schema.properties.data || schema.properties.meta)) {
    const envelope = {
      type: 'object',
      properties: { data: schema.properties.data, ...(schema.properties.meta ? { meta: schema.properties.meta } : {}) },
      required: schema.required,
    };
    return fieldsHtml({
      ...envelope,
      properties: Object.fromEntries(Object.entries(envelope.properties).filter(([, v]) => v)),
    });
  }
  return bodyHtml(schema);
}

const SECURITY_NAMES: Record<string, string> = {
  playerToken: 'player token',
  portalSession: 'portal session',
  developerKey: 'developer key',
  metricsToken: 'metrics token',
};

function securityText(security: Json[] | undefined): string {
  if (!security || security.length === 0) return 'none';
  const names = security.map(
    (s) =>
      Object.keys(s)
        .map((k) => SECURITY_NAMES[k] ?? k)
        .join(' and ') || 'none',
  );
  return names.join(' or ');
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;

function operationHtml(method: string, path: string, op: Json): string {
  const id = escapeHtml(op.operationId ?? slug(`${method} ${path}`));
  const params = (op.parameters ?? []) as Json[];
  const paramsHtml = params.length
    ? `<h4>Parameters</h4><div class="table-wrap"><table><thead><tr><th scope="col">name</th><th scope="col">in</th><th scope="col">type</th><th scope="col">description</th></tr></thead><tbody>${params
        .map((p) => {
          const limits = constraints(p.schema ?? {});
          return `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? ' <span class="badge">required</span>' : ''}</td><td>${escapeHtml(p.in)}</td><td>${typeLabel(p.schema)}</td><td>${inlineMarkdown(p.description ?? describe(p.schema ?? {}) ?? '')}${limits.length ? ` <span class="muted">(${limits.join('; ')})</span>` : ''}</td></tr>`;
        })
        .join('')}</tbody></table></div>`
    : '';
  const bodies = Object.entries((op.requestBody?.content ?? {}) as Record<string, Json>);
  const requestHtml = bodies.length
    ? `<h4>Request body${op.requestBody.required ? '' : ' (optional)'}</h4>${bodies.map(([type, media]) => `<p><code>${escapeHtml(type)}</code></p>${bodyHtml(media.schema)}`).join('')}`
    : '';
  const responses = Object.entries((op.responses ?? {}) as Record<string, Json>);
  const responsesHtml = `<h4>Responses</h4><dl class="responses">${responses
    .map(([status, response]) => {
      const ok = status.startsWith('2') || status.startsWith('3');
      const description =
        response.description && response.description !== 'Default Response'
          ? inlineMarkdown(response.description)
          : ok
            ? 'success'
            : '';
      return `<dt><span class="status status-${escapeHtml(status[0] ?? '')}xx">${escapeHtml(status)}</span></dt><dd>${description}${ok ? successHtml(response.content) : ''}</dd>`;
    })
    .join('')}</dl>`;
  return `<section class="operation" id="${id}" aria-labelledby="${id}-title">
<h3 id="${id}-title"><span class="method method-${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code class="path">${escapeHtml(path)}</code></h3>
${op.summary ? `<p class="summary">${inlineMarkdown(op.summary)}</p>` : ''}
${op.description ? `<p>${inlineMarkdown(op.description)}</p>` : ''}
<p class="muted">Credentials: ${escapeHtml(securityText(op.security))}${op.deprecated ? ' · deprecated' : ''}</p>
${paramsHtml}${requestHtml}${responsesHtml}
</section>`;
}

/** The whole reference (the content of <main>): introduction, a contents list by tag, operations by tag, schemas. */
export function renderApiReference(doc: Json): string {
  const tags = ((doc.tags ?? []) as Json[]).map((t) => ({
    name: String(t.name),
    description: String(t.description ?? ''),
  }));
  const byTag = new Map<string, string[]>(tags.map((t) => [t.name, []]));
  const contents = new Map<string, Array<[string, string, string]>>(tags.map((t) => [t.name, []]));
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const tag = String(op.tags?.[0] ?? 'other');
      if (!byTag.has(tag)) {
        byTag.set(tag, []);
        contents.set(tag, []);
        tags.push({ name: tag, description: '' });
      }
      byTag.get(tag)!.push(operationHtml(method, path, op));
      contents.get(tag)!.push([op.operationId ?? slug(`${method} ${path}`), method.toUpperCase(), path]);
    }
  }
  const schemas = Object.entries((doc.components?.schemas ?? {}) as Record<string, Json>);
  const info = (doc.info ?? {}) as Json;
  return `<article class="prose api-docs">
<h1>${escapeHtml(String(info.title ?? 'API'))} <span class="muted">${escapeHtml(String(info.version ?? ''))}</span></h1>
<p>The reference of every operation, generated from the <a href="/v1/openapi.json">OpenAPI 3.1 document</a> (for code generators and API tools). Game developers: see also the <a href="/docs/sdk">Game SDK guide</a>.</p>
<nav aria-label="API sections" class="api-contents"><h2>Contents</h2><ul>
<li><a href="#overview">Overview</a></li>
${tags
  .filter((t) => byTag.get(t.name)?.length)
  .map(
    (t) =>
      `<li><a href="#tag-${slug(t.name)}">${escapeHtml(t.name)}</a> <span class="muted">(${byTag.get(t.name)!.length})</span></li>`,
  )
  .join('\n')}
<li><a href="#schemas">Schemas</a></li>
</ul></nav>
<section id="overview" aria-labelledby="overview-title"><h2 id="overview-title">Overview</h2>
${blockMarkdown(String(info.description ?? ''), 3)}
</section>
${tags
  .filter((t) => byTag.get(t.name)?.length)
  .map(
    (
      t,
    ) => `<section id="tag-${slug(t.name)}" class="api-tag" aria-labelledby="tag-${slug(t.name)}-title"><h2 id="tag-${slug(t.name)}-title">${escapeHtml(t.name)}</h2>
${t.description ? `<p>${inlineMarkdown(t.description)}</p>` : ''}
<ul class="api-index">${contents
      .get(t.name)!
      .map(
        ([id, method, path]) =>
          `<li><a href="#${escapeHtml(id)}"><span class="method method-${method.toLowerCase()}">${method}</span> <code>${escapeHtml(path)}</code></a></li>`,
      )
      .join('')}</ul>
${byTag.get(t.name)!.join('\n')}
</section>`,
  )
  .join('\n')}
<section id="schemas" aria-labelledby="schemas-title"><h2 id="schemas-title">Schemas</h2>
${schemas
  .map(
    ([
      name,
      schema,
    ]) => `<section class="schema-def" id="schema-${escapeHtml(name)}" aria-labelledby="schema-${escapeHtml(name)}-title"><h3 id="schema-${escapeHtml(name)}-title">${escapeHtml(name)}</h3>
${schema.description && schema.description !== name ? `<p>${inlineMarkdown(schema.description)}</p>` : ''}${bodyHtml(schema)}</section>`,
  )
  .join('\n')}
</section>
</article>`;
}
