// The README stays true: every setting and every command is in it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingLeaves } from '../src/config.js';
import { buildProgram } from '../src/cli.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

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

  it('gives the two set-up commands', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
  });
});
