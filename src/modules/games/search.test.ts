import { describe, expect, it } from 'vitest';
import { editDistance, foldCase, relevance, searchTextOf } from './search.js';

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

  it('counts a swap of two neighbours as one edit', () => {
    expect(editDistance('stra', 'star', 2)).toBe(1);
    expect(editDistance('merg', 'merge', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });

  it('weighs the name over the tagline over the description; 0 when a word matches nowhere', () => {
    const text = searchTextOf({
      name: 'Orbit',
      tagline: 'Fly far',
      description: 'orbits and stars',
      tags: [],
      author: 'Ada',
    });
    expect(relevance('orbit', text)).toBeGreaterThan(relevance('fly', text));
    expect(relevance('fly', text)).toBeGreaterThan(relevance('stars', text));
    expect(relevance('orbti', text)).toBeGreaterThan(0);
    expect(relevance('orbit zebra', text)).toBe(0);
    expect(relevance('   ', text)).toBe(0);
  });
});
