// Game and profile pages as crawlers and link previews read them: title, description, canonical URL, Open Graph and
// Twitter card tags with an absolute picture, and the heading, text and picture in <main> before any script runs.
import { expect, it } from 'vitest';
import { avatarUrl } from '../../src/modules/accounts/avatar-url.js';
import { gameFileUrl } from '../../src/modules/games/game-origin.js';
import { shortText } from '../../src/modules/portal/page-cards.js';
import { eachDialect } from '../helpers/harness.js';
import { createGame, createPlayer } from '../helpers/factories.js';

/** The content of <meta property|name="key">, decoded the way a crawler's HTML parser would. */
function metaOf(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)">`).exec(html);
  return match ? decode(match[1]!) : undefined;
}
const decode = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
const mainOf = (html: string) => /<main[^>]*>([\s\S]*)<\/main>/.exec(html)![1]!;

eachDialect('portal: link previews of game and profile pages', (h) => {
  it('gives a game page its title, description, canonical URL, Open Graph and a large Twitter card with the cover', async () => {
    const game = await createGame(h.ctx, {
      slug: 'tricky-quotes',
      name: `Tom & "Jerry's" <Chase>`,
      tagline: 'Run <fast> & "jump"',
      description: 'A <b>long</b> chase & more.',
      cover: 'art/cover.png',
    });
    const res = await h.http.get('/games/tricky-quotes');
    expect(res.status).toBe(200);
    const html = res.text;
    const cover = gameFileUrl(h.ctx.config, game.slug, game.files_dir, 'art/cover.png');
    expect(cover).toMatch(/^https?:\/\//);
    expect(html).toContain('<title>Tom &amp; &quot;Jerry&#39;s&quot; &lt;Chase&gt; · Game Platform</title>');
    expect(metaOf(html, 'description')).toBe('Run <fast> & "jump"');
    expect(html).toContain(`<link rel="canonical" href="${h.ctx.config.public_url}/games/tricky-quotes">`);
    expect(metaOf(html, 'og:type')).toBe('website');
    expect(metaOf(html, 'og:title')).toBe(`Tom & "Jerry's" <Chase>`);
    expect(metaOf(html, 'og:description')).toBe('Run <fast> & "jump"');
    expect(metaOf(html, 'og:url')).toBe(`${h.ctx.config.public_url}/games/tricky-quotes`);
    // The preview is the cover rendered as a 1200×630 PNG (test/portal/crawlers.test.ts reads it).
    const preview = `${h.ctx.config.public_url}/games/tricky-quotes/preview.png?v=`;
    expect(metaOf(html, 'og:image')).toMatch(new RegExp(`^${preview.replace(/[.:/?]/g, '\\$&')}[\\w-]{16}$`));
    expect(metaOf(html, 'twitter:card')).toBe('summary_large_image');
    expect(metaOf(html, 'twitter:image')).toBe(metaOf(html, 'og:image'));
    // Nothing the game's author wrote reaches the page as markup.
    expect(html).not.toContain('<Chase>');
    expect(html).not.toContain('<fast>');
    expect(html).not.toContain('<b>long</b>');

    // Before any script: the heading, the tagline, the description and the cover, and no <noscript> wrapper around them.
    const main = mainOf(html);
    expect(main).toContain('<h1>Tom &amp; &quot;Jerry&#39;s&quot; &lt;Chase&gt;</h1>');
    expect(main).toContain('<p class="tagline">Run &lt;fast&gt; &amp; &quot;jump&quot;</p>');
    expect(main).toContain('<p class="description">A &lt;b&gt;long&lt;/b&gt; chase &amp; more.</p>');
    expect(main).toContain(
      `<img class="cover large" src="${cover.replace(/&/g, '&amp;')}" alt="Cover of Tom &amp; &quot;Jerry&#39;s&quot; &lt;Chase&gt;"`,
    );
    expect(main).not.toContain('noscript');
    // Still no inline script, and the CSP lets the cover load.
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('describes a game without a tagline by its description, cut for previews, or by a sentence of its own', async () => {
    await createGame(h.ctx, { slug: 'wordy', name: 'Wordy', description: `${'word '.repeat(80)}end` });
    await createGame(h.ctx, { slug: 'silent', name: 'Silent' });
    const wordy = metaOf((await h.http.get('/games/wordy')).text, 'og:description')!;
    expect(wordy.length).toBeLessThanOrEqual(200);
    expect(wordy).toMatch(/^word word .*word…$/);
    expect(metaOf((await h.http.get('/games/silent')).text, 'description')).toBe(
      'Play Silent in your browser on Game Platform.',
    );
    expect(shortText('a  b\n c')).toBe('a b c');
  });

  it('gives a profile page its title, canonical URL, Open Graph profile and a summary card with the absolute avatar', async () => {
    const player = await createPlayer(h.ctx, { username: 'Quote_Q', display_name: `Q & "A" <Z>` });
    await h.ctx.db.updateTable('players').set({ bio: 'I <3 "games" & puzzles' }).where('id', '=', player.id).execute();
    const res = await h.http.get('/u/quote_q');
    expect(res.status).toBe(200);
    const html = res.text;
    const avatar = avatarUrl(h.ctx.config, { username: 'Quote_Q', display_name: `Q & "A" <Z>`, avatar_key: null });
    expect(avatar).toMatch(/^https?:\/\//);
    expect(html).toContain('<title>Q &amp; &quot;A&quot; &lt;Z&gt; · Game Platform</title>');
    expect(metaOf(html, 'description')).toBe('I <3 "games" & puzzles');
    expect(html).toContain(`<link rel="canonical" href="${h.ctx.config.public_url}/u/Quote_Q">`);
    expect(metaOf(html, 'og:type')).toBe('profile');
    expect(metaOf(html, 'og:title')).toBe(`Q & "A" <Z>`);
    expect(metaOf(html, 'og:url')).toBe(`${h.ctx.config.public_url}/u/Quote_Q`);
    // The initials avatar is SVG, which previews ignore: the site's PNG share image stands in.
    expect(metaOf(html, 'og:image')).toBe(`${h.ctx.config.public_url}/share.png`);
    expect(metaOf(html, 'twitter:card')).toBe('summary');
    const main = mainOf(html);
    expect(main).toContain('<h1>Q &amp; &quot;A&quot; &lt;Z&gt;</h1>');
    expect(main).toContain('<p class="muted">@Quote_Q</p>');
    expect(main).toContain('<p class="bio">I &lt;3 &quot;games&quot; &amp; puzzles</p>');
    expect(main).toContain(`<img class="avatar" src="${avatar.replace(/&/g, '&amp;')}"`);
    expect(html).not.toContain('<Z>');
  });

  it('serves a game page with its "More like this" cards: others only, same category first, premium marked', async () => {
    const game = await createGame(h.ctx, { slug: 'like-this', category: 'like-cat', tags: '["x"]' });
    const same = await createGame(h.ctx, { category: 'like-cat', name: 'Same <Kind>', requires_premium: 1 });
    const other = await createGame(h.ctx, { category: 'like-other', plays: 50 });
    const html = mainOf((await h.http.get(`/games/${game.slug}`)).text);
    const related = /<section class="related"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1];
    expect(related).toContain('<h2 id="related-title">More like this</h2>');
    const links = [...related!.matchAll(/<a href="\/games\/([^"]+)" class="card-link">/g)].map((m) => m[1]);
    expect(links).not.toContain(game.slug);
    expect(links.indexOf(same.slug)).toBe(0);
    expect(links).toContain(other.slug);
    expect(related).toContain('Same &lt;Kind&gt;');
    expect(related).toContain('<span class="badge premium">Unlimited only</span>');
  });

  it('answers an unknown game or player with the 404 page, without a card', async () => {
    for (const url of ['/games/no-such-game', '/u/nobody_here']) {
      const res = await h.http.get(url);
      expect(res.status).toBe(404);
      expect(res.text).toContain('Page not found');
      expect(res.text).not.toContain('og:title');
    }
  });

  it('leaves upgrade_url out of the pages while it is unset', async () => {
    expect((await h.http.get('/')).text).not.toContain('data-upgrade-url');
  });
});

eachDialect(
  'portal: upgrade_url on the pages',
  (h) => {
    it('hands upgrade_url to the page scripts as <body data-upgrade-url>, escaped', async () => {
      await createGame(h.ctx, { slug: 'with-shop' });
      for (const url of ['/', '/games/with-shop', '/play/with-shop']) {
        expect((await h.http.get(url)).text).toContain(
          'data-upgrade-url="https://shop.example.com/unlimited?from=portal&amp;x=&quot;1&quot;"',
        );
      }
    });
  },
  { settings: { upgrade_url: 'https://shop.example.com/unlimited?from=portal&x="1"' } },
);
