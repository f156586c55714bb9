// The SDK guide (/docs/sdk) teaches what the play shell does: saves with expected_version that ask on a conflict,
// pause and resume when another tab takes the game over, and the play view's size and orientation rules.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';

/** The page's text with the entities of escapeHtml decoded, so code samples read as written. */
const decoded = (html: string) =>
  html
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

eachDialect('portal: the SDK guide', (h) => {
  it('shows saving with expected_version, asking on version_conflict, and never saving over it at pause', async () => {
    const res = await h.http.get('/docs/sdk');
    expect(res.status).toBe(200);
    const text = decoded(res.text);
    const saves = text.slice(text.indexOf('<h2 id="saves">'), text.indexOf('<h2 id="events">'));
    expect(saves).toContain('expected_version: seen.get(slot) ?? 0');
    expect(saves).toContain("error.code !== 'version_conflict'");
    expect(saves).toContain('askPlayer(');
    expect(saves).toContain("if (reason !== 'limit') return;");
    // The minimal game's autosave names the version it saw too.
    expect(text).toContain('{ expected_version: version }');
    expect(text).not.toMatch(/saves\.save\(0, \{ format: 1, clicks \}\)\)/);
  });

  it('documents pause with its reasons, resume, quit, continue and the play view', async () => {
    const text = decoded((await h.http.get('/docs/sdk')).text);
    expect(text).toContain('<tr><td><code>resume</code></td>');
    expect(text).toContain('<code>{reason: "limit" | "replaced" | "signed_out"}</code>');
    expect(text).toContain('<code>{reason: "replaced" | "signed_in"}</code>');
    expect(text).toContain('<tr><td><code>quit</code></td>');
    expect(text).toContain('<code>continue</code> is <code>{slot, version}</code>');
    expect(text).toContain('<h2 id="play-view">The play view</h2>');
    expect(text).toMatch(/One game, one tab\.<\/strong>/);
  });
});
