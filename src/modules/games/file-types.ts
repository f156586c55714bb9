// What engines need from a file server: the right Content-Type for their files, and pre-compressed files
// (`x.wasm.br`, `x.data.gz`, as Unity and Godot export them) sent with Content-Encoding and their real type.
import send from '@fastify/send';

/**
 * Types mime-db does not know, or knows as something else, for files engines ship: Emscripten (`.data`, `.mem`),
 * Godot (`.pck`), Unity (`.unityweb`, whose loader decompresses it itself), JavaScript as RFC 9239 names it.
 */
const ENGINE_TYPES: Record<string, string> = {
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  data: 'application/octet-stream',
  mem: 'application/octet-stream',
  pck: 'application/octet-stream',
  unityweb: 'application/octet-stream',
  atlas: 'text/plain',
  fnt: 'text/xml',
  tmx: 'application/xml',
  ldtk: 'application/json',
  webmanifest: 'application/manifest+json',
};

const extensionOf = (file: string) => file.slice(file.lastIndexOf('.') + 1).toLowerCase();

/** The Content-Type of a game file by its name, `; charset=utf-8` on text. */
export function contentTypeOf(file: string): string {
  const type = ENGINE_TYPES[extensionOf(file)] ?? send.mime.getType(file) ?? 'application/octet-stream';
  return send.isUtf8MimeType(type) ? `${type}; charset=utf-8` : type;
}

export type Encoding = 'br' | 'gzip';
export const ENCODING_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/**
 * `x.wasm.br` → `{inner: 'x.wasm', encoding: 'br'}` when the inner name is a file a browser would use as such
 * (it has a known type and is not itself an archive). `level.tar.gz` or `save.gz` stay plain gzip downloads.
 */
export function encodedName(file: string): { inner: string; encoding: Encoding } | null {
  const encoding = file.endsWith('.br') ? 'br' : file.endsWith('.gz') ? 'gzip' : null;
  if (!encoding) return null;
  const inner = file.slice(0, -ENCODING_SUFFIX[encoding].length);
  const ext = inner.includes('.') ? extensionOf(inner) : '';
  if (!ext || ext === 'tar' || ext === 'gz' || ext === 'br') return null;
  return ENGINE_TYPES[ext] || send.mime.getType(inner) ? { inner, encoding } : null;
}
