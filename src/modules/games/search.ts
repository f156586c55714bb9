// Catalogue search: the text `q` is matched against, folded in JS so that SQLite and PostgreSQL agree on Unicode case.

/**
 * Case-folds for matching: NFKC, then upper- and lower-casing (which maps "ß" to "ss" and "ﬁ" to "fi"), and final sigma
 * as sigma, since toLowerCase picks the form by position (SQLite's LOWER() folds only ASCII, and PostgreSQL's depends on
 * the database's locale).
 */
export function foldCase(text: string): string {
  return text.normalize('NFKC').toUpperCase().toLowerCase().replace(/ς/g, 'σ');
}

/** Separates the fields so that a query never matches across two of them. */
const FIELD_SEPARATOR = '\u001f';

export interface SearchFields {
  name: string;
  tagline: string | null;
  description: string | null;
  tags: readonly string[];
  author: string;
}

/** The value of games.search_text: every field `q` matches, folded. */
export function searchTextOf(game: SearchFields): string {
  return foldCase(
    [game.name, game.tagline ?? '', game.description ?? '', ...game.tags, game.author].join(FIELD_SEPARATOR),
  );
}

/** A LIKE pattern (with ESCAPE '\') matching text that contains `query` literally: `%`, `_` and `\` in it lose their meaning. */
export function containsPattern(query: string): string {
  return `%${foldCase(query).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
