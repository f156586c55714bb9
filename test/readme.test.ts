// The README and the docs it links stay true: every setting and every command is in them, every link resolves, and
// they read as a guide in the present tense: no dated journal, no issue numbers, no citations of documents the
// repository does not hold, and a development guide short enough to read.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { settingLeaves } from '../src/config.js';
import { buildProgram } from '../src/cli.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const front = read('README.md');
const docs = readdirSync(new URL('../docs/', import.meta.url))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const readme = [front, ...docs.map(read)].join('\n');
/** Where measured numbers live: linked from the front page, held to the same links and references as the docs. */
const RESULTS = 'bench/RESULTS.md';
/** docs/development.md stays a guide of about 25 KB: the measurements go to bench/RESULTS.md. */
const GUIDE_MAX_BYTES = 26_000;

/** The lines of `text` outside code blocks that match `pattern`, numbered, for a failure message that shows where. */
function linesMatching(text: string, pattern: RegExp): string[] {
  let inCode = false;
  return text.split('\n').flatMap((line, i) => {
    if (line.trimStart().startsWith('```')) inCode = !inCode;
    return !inCode && pattern.test(line) ? [`${i + 1}: ${line}`] : [];
  });
}

/** An issue of a tracker the repository does not hold: "issue 14", "issues 13 and 14", "#14" (not a link's "](#…)"). */
const ISSUE_NUMBER = /\bissues?\s+#?\d+|(?<!\]\()(?<![\w&#])#\d+\b/i;
/** A section of a design document or specification the repository does not hold. */
const OUTSIDE_CITATION = /\b(DESIGN|spec(ification)?)('s)?\s*§/i;
/** A journal's heading: "Remeasured on …", or any heading with a date in it. */
const DATED_HEADING = /^#{1,6}\s.*(remeasured|\b\d{4}-\d{2}-\d{2}\b)/i;

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

  it('links every page under docs/ and the benchmark results from the front page, and every relative link finds its file and heading', () => {
    for (const doc of [...docs, RESULTS]) expect(front).toContain(`](${doc})`);
    const slug = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9 _-]/g, '')
        .replace(/ /g, '-');
    for (const page of ['README.md', ...docs, RESULTS]) {
      const dir = page.slice(0, page.lastIndexOf('/') + 1);
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

  it('holds no dated journal heading in the README or under docs/', () => {
    for (const page of ['README.md', ...docs]) expect(linesMatching(read(page), DATED_HEADING), page).toEqual([]);
  });

  it('cites no issue number and no section of a document the repository does not hold', () => {
    for (const page of ['README.md', ...docs, RESULTS]) {
      expect(linesMatching(read(page), ISSUE_NUMBER), page).toEqual([]);
      expect(linesMatching(read(page), OUTSIDE_CITATION), page).toEqual([]);
    }
  });

  it('leaves no source comment citing an issue or a document the repository does not hold, and every docs/ section a comment cites exists', () => {
    const sources = execFileSync('git', ['ls-files', '*.ts', '*.cjs', '*.mjs', '*.sh', '.ci/run'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => f && f !== 'test/readme.test.ts' && existsSync(new URL(`../${f}`, import.meta.url)));
    const headings = new Map(
      [...docs, 'docs/backend-developers.md'].map((doc) => [
        doc,
        new Set(linesMatching(read(doc), /^#{1,6}\s/).map((l) => l.replace(/^\d+: #+\s*/, ''))),
      ]),
    );
    const offending: string[] = [];
    const missing: string[] = [];
    for (const file of sources) {
      const text = read(file);
      for (const line of linesMatching(text, /\bissues?\s+\d+/i)) offending.push(`${file}:${line}`);
      for (const line of linesMatching(text, OUTSIDE_CITATION)) offending.push(`${file}:${line}`);
      for (const [, doc, heading] of text.matchAll(/(docs\/[\w-]+\.md), "([^"]+)"/g))
        if (!headings.get(doc ?? '')?.has(heading ?? '')) missing.push(`${file}: ${doc}, "${heading}"`);
    }
    expect(offending).toEqual([]);
    expect(missing).toEqual([]);
  });

  it('keeps docs/development.md a guide of about 25 KB', () => {
    expect(Buffer.byteLength(read('docs/development.md'))).toBeLessThanOrEqual(GUIDE_MAX_BYTES);
  });

  it('refuses what these checks are for', () => {
    for (const journal of ['#### Remeasured on 2026-11-28, 06:59 UTC', '## Run of 2026-11-27'])
      expect(linesMatching(journal, DATED_HEADING)).toHaveLength(1);
    for (const issue of ['the goals of issue 14', 'Issues 13 and 14', 'as asked in #14.', '(#7)'])
      expect(linesMatching(issue, ISSUE_NUMBER), issue).toHaveLength(1);
    for (const citation of ['(DESIGN §4)', 'spec §5 says', "the specification's §2"])
      expect(linesMatching(citation, OUTSIDE_CITATION), citation).toHaveLength(1);
    for (const fine of ['[the map](#the-map)', '&#39;', 'issued tokens', 'a game with 14 players', '### Memory'])
      expect([fine].flatMap((t) => [DATED_HEADING, ISSUE_NUMBER, OUTSIDE_CITATION].filter((r) => r.test(t)))).toEqual(
        [],
      );
  });
});
