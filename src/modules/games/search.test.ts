import { describe, expect, it } from 'vitest';
import { containsPattern, foldCase, searchTextOf } from './search.js';

describe('games: search text', () => {
  it('folds Unicode case beyond ASCII', () => {
    expect(foldCase('ÉCLAIR Straße ΣΟΦΟΣ')).toBe('éclair strasse σοφοσ');
    expect(foldCase('ﬁsh')).toBe(foldCase('FISH'));
  });

  it('joins every searchable field, tags included', () => {
    const text = searchTextOf({
      name: 'Orbit',
      tagline: 'Go',
      description: null,
      tags: ['Space', 'Arcade'],
      author: 'Ada',
    });
    for (const word of ['orbit', 'go', 'space', 'arcade', 'ada']) expect(text).toContain(word);
  });

  it('escapes LIKE wildcards and the escape character', () => {
    expect(containsPattern('100%')).toBe('%100\\%%');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('back\\slash')).toBe('%back\\\\slash%');
    expect(containsPattern('MIXED')).toBe('%mixed%');
  });
});
