import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { avatarUrl, hueColour, hueOf, initialsOf, initialsSvg, validInitials } from './avatar-url.js';

describe('initials avatar', () => {
  it('takes the first letters of the first and last word', () => {
    expect(initialsOf('Ada Lovelace', 'ada')).toBe('AL');
    expect(initialsOf('ada king lovelace', 'ada')).toBe('AL');
    expect(initialsOf('Zoë', 'zoe')).toBe('Z');
    expect(initialsOf('élan vital', 'x_y')).toBe('ÉV');
  });

  it('skips punctuation and falls back to the username', () => {
    expect(initialsOf('"Ace" (Pilot)', 'ace')).toBe('AP');
    expect(initialsOf('!!! ???', 'mika')).toBe('M');
  });

  it('keeps one character per initial when upper-casing grows it', () => {
    expect(initialsOf('ßeta', 'b')).toBe('S');
  });

  it('derives the same hue from a username in any case, different ones for different names', () => {
    expect(hueOf('Ada_L')).toBe(hueOf('ada_l'));
    // The first two bytes of the SHA-256 of the lower-cased name, modulo 360: avatar URLs already handed out keep it.
    expect(hueOf('Ada_L')).toBe(createHash('sha256').update('ada_l').digest().readUInt16BE(0) % 360);
    const hues = new Set(['ada', 'bob', 'cyd', 'dee', 'eve', 'fay'].map(hueOf));
    expect(hues.size).toBeGreaterThan(3);
    for (const h of hues) expect(h).toBeGreaterThanOrEqual(0);
  });

  it('turns a hue into a hex colour', () => {
    expect(hueColour(0)).toMatch(/^#[0-9a-f]{6}$/);
    expect(hueColour(0)).not.toBe(hueColour(180));
  });

  it('builds an SVG and an absolute URL with the hue and initials in the path', () => {
    const svg = initialsSvg('AL', 210);
    expect(svg).toMatch(/^<svg [^>]*width="256" height="256"/);
    expect(svg).toContain('>AL</text>');
    expect(svg).toContain(hueColour(210));
    const url = avatarUrl(
      { public_url: 'https://play.example.com', assets_url: '' },
      { username: 'ada', display_name: 'Ada Lovelace', avatar_key: null },
    );
    expect(url).toBe(`https://play.example.com/avatars/initials/${hueOf('ada')}/AL.svg`);
    expect(
      avatarUrl(
        { public_url: 'https://p.example', assets_url: '' },
        { username: 'a', display_name: 'A', avatar_key: '7-abc.webp' },
      ),
    ).toBe('https://p.example/avatars/7-abc.webp');
  });

  it('points uploads at assets_url when one is set, and keeps the generated initials on the service', () => {
    const config = { public_url: 'https://p.example', assets_url: 'https://cdn.example/pub' };
    expect(avatarUrl(config, { username: 'a', display_name: 'A', avatar_key: '7-abc.webp' })).toBe(
      'https://cdn.example/pub/avatars/7-abc.webp',
    );
    expect(avatarUrl(config, { username: 'a', display_name: 'A', avatar_key: null })).toMatch(
      /^https:\/\/p\.example\/avatars\/initials\//,
    );
  });

  it('accepts only one or two letters or digits as initials', () => {
    expect(validInitials('AL')).toBe(true);
    expect(validInitials('É')).toBe(true);
    expect(validInitials('ABC')).toBe(false);
    expect(validInitials('<s')).toBe(false);
    expect(validInitials('')).toBe(false);
  });
});
