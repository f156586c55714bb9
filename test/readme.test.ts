// The README and the docs it links stay true: every setting and every command is in them, and every link resolves.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingLeaves } from '../src/config.js';
import { buildProgram } from '../src/cli.js';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const front = read('README.md');
const docs = readdirSync(new URL('../docs/', import.meta.url))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const readme = [front, ...docs.map(read)].join('\n');

describe('README', () => {
  it('lists every setting with its environment variable', () => {
    for (const leaf of settingLeaves()) {
      expect(readme).toContain(`\`${leaf.name}\``);
      expect(readme).toContain(`\`${leaf.envName}\``);
    }
  });

  it('shows every command of the CLI', () => {
    const walk = (command: ReturnType<typeof buildProgram>, prefix: string[]): string[] =>
      command.commands.flatMap((c) => {
        const path = [...prefix, c.name()];
        return c.commands.length ? walk(c, path) : [path.join(' ')];
      });
    for (const command of walk(buildProgram(), [])) expect(readme).toContain(`gameplatform ${command}`);
  });

  it('gives the two set-up commands on its front page', () => {
    expect(front).toContain('npm ci && npm start');
    expect(front).toContain('npm test');
  });

  it('links every page under docs/ from the front page, and every relative link finds its file and heading', () => {
    for (const doc of docs) expect(front).toContain(`](${doc})`);
    const slug = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9 _-]/g, '')
        .replace(/ /g, '-');
    for (const page of ['README.md', ...docs]) {
      const dir = page.includes('/') ? 'docs/' : '';
      for (const [, target, anchor] of read(page).matchAll(/\]\((?!https?:)([^)#\s]*)(?:#([^)\s]+))?\)/g)) {
        const file = target ? new URL(`../${dir}${target}`, import.meta.url) : new URL(`../${page}`, import.meta.url);
        expect(existsSync(file), `${page} links ${target}`).toBe(true);
        if (anchor) {
          const headings = readFileSync(file, 'utf8')
            .split('\n')
            .filter((l) => /^#{1,6} /.test(l))
            .map((l) => slug(l.replace(/^#+ /, '')));
          expect(headings, `${page} links #${anchor}`).toContain(anchor);
        }
      }
    }
  });
});
