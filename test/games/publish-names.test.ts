// Names publish can hold: any file name a file system allows (up to 255 bytes) publishes and is served; a longer one
// (possible in an upload, not on the publishing machine's disk) is refused by the same rule that reads URLs; hard
// links are refused, whether they point inside the folder or out of it.
import { linkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/http/errors.js';
import { isServablePath, isServableSegment } from '../../src/modules/games/files.js';
import { parseGamePath } from '../../src/modules/games/game-files.service.js';
import { publishGame } from '../../src/modules/games/publish.service.js';
import { fixtureCopy, publishFixture } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';

async function refusal(publish: () => Promise<unknown>): Promise<AppError> {
  const error = await publish().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('validation_failed');
  return error as AppError;
}

describe('games: the length of a file name', () => {
  it('counts bytes, not characters: 255 bytes at most', () => {
    expect(isServableSegment(`${'x'.repeat(252)}.js`)).toBe(true);
    expect(isServableSegment(`${'x'.repeat(253)}.js`)).toBe(false);
    // 128 × "é" is 128 characters but 256 bytes in UTF-8
    expect(isServableSegment('é'.repeat(128))).toBe(false);
    expect(isServablePath(`a/${'é'.repeat(128)}`)).toBe(false);
    expect(parseGamePath(`/g/some-game/${encodeURIComponent('é'.repeat(128))}`)).toBeNull();
  });
});

eachDialect('games: publish and file names', (h) => {
  it.each([236, 240, 252, 255])('publishes and serves a file whose name has %i bytes', async (bytes) => {
    const name = `${'n'.repeat(bytes - 3)}.js`;
    const script = `// long name\n${'console.log("a long name");\n'.repeat(100)}`;
    const game = await publishFixture(h.ctx, 'orbit-dash', { files: { [`scripts/${name}`]: script } });
    const res = await h.http.get(`http://${game.slug}.games.localhost:8080/scripts/${name}`, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.status).toBe(200);
    // A copy needs 3 bytes more: names it would not fit are sent as they are.
    expect(res.headers['content-encoding']).toBe(bytes <= 252 ? 'br' : undefined);
  });

  it('refuses a hard link to a file outside the folder, with a clear message, and serves nothing of it', async () => {
    const outside = path.join(tempDir('gp-outside-'), 'secret.txt');
    writeFileSync(outside, 'SECRET=outside the game folder');
    const dir = fixtureCopy('orbit-dash');
    linkSync(outside, path.join(dir, 'linked.txt'));
    const error = await refusal(() => publishGame(h.ctx, dir));
    expect(error.extra.fields).toMatchObject({
      files:
        'linked.txt is a hard link (the file has 2 names); publish copies files that have one name: copy it in (cp) instead',
    });
  });

  it('refuses a hard link between two files of the folder', async () => {
    const dir = fixtureCopy('orbit-dash');
    linkSync(path.join(dir, 'game.js'), path.join(dir, 'game-copy.js'));
    const error = await refusal(() => publishGame(h.ctx, dir));
    expect((error.extra.fields as Record<string, string>).files).toMatch(
      /^game-copy\.js is a hard link .*\(and 1 more problem/,
    );
  });
});
