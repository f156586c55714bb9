// The committed types of @gameplatform/client are what openapi-typescript makes of the document the service serves now.
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { liveDocument, SCHEMA_FILE, schemaSource } from '../../packages/client/scripts/generate.js';

it('packages/client/src/schema.ts is generated from the live /v1/openapi.json (else run npm run client:generate)', {
  timeout: 120_000,
}, async () => {
  const generated = await schemaSource(await liveDocument());
  const committed = await readFile(SCHEMA_FILE, 'utf8');
  // one message instead of a 7,000-line diff
  expect(
    committed === generated,
    'packages/client/src/schema.ts is out of date: run `npm run client:generate` and commit it',
  ).toBe(true);
});
