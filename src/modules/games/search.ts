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

/** How much a match in each field counts: name and tagline before tags, author and description. */
const FIELD_WEIGHTS = { name: 8, tagline: 4, tags: 3, author: 2, description: 1 } as const;
type Field = keyof typeof FIELD_WEIGHTS;

/** How well a query word matches a field: a whole word, the start of a word, inside the text, a word with a typo. */
const QUALITY = { word: 1, prefix: 0.8, inside: 0.5, typo: 0.4 } as const;

const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const LETTERS_ONLY = /^\p{L}+$/u;

/** Splits search_text (searchTextOf) back into its fields: name, tagline, description, the tags, author. */
function fieldsOf(searchText: string): Array<[Field, string]> {
  const parts = searchText.split(FIELD_SEPARATOR);
  const fields: Array<[Field, string]> = [
    ['name', parts[0] ?? ''],
    ['tagline', parts[1] ?? ''],
    ['description', parts[2] ?? ''],
  ];
  for (const tag of parts.slice(3, -1)) fields.push(['tags', tag]);
  if (parts.length > 3) fields.push(['author', parts[parts.length - 1] ?? '']);
  return fields;
}

/** Optimal string alignment distance (edits, a swap of two neighbours counting as one), given up past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/** Typos forgiven in a query word: none under 4 letters, one up to 7, two from 8. */
function typosAllowed(token: string): number {
  if (!LETTERS_ONLY.test(token) || token.length < 4) return 0;
  return token.length >= 8 ? 2 : 1;
}

function quality(token: string, text: string): number {
  if (!text.includes(token)) {
    const allowed = typosAllowed(token);
    if (allowed === 0) return 0;
    for (const raw of text.split(/\s+/)) {
      const word = raw.replace(EDGE_PUNCTUATION, '');
      // The whole word or its start, so that "stra" finds "star" and "mreg" finds "merge".
      if (
        editDistance(token, word, allowed) <= allowed ||
        editDistance(token, word.slice(0, token.length), allowed) <= allowed
      )
        return QUALITY.typo;
    }
    return 0;
  }
  let best: number = QUALITY.inside;
  for (const raw of text.split(/\s+/)) {
    for (const word of [raw, raw.replace(EDGE_PUNCTUATION, '')]) {
      if (word === token) return QUALITY.word;
      if (word.startsWith(token)) best = QUALITY.prefix;
    }
  }
  return best;
}

/**
 * How well a game matches a search, 0 when it does not: every word of the query must match a field (inside it, or with
 * a typo when the word is letters only), each word counting by its best field and how well it matches there, the whole
 * query found in a field counting again. Name and tagline outweigh tags, author and description (docs/api.md, "Search").
 */
export function relevance(query: string, searchText: string): number {
  const phrase = foldCase(query).trim();
  if (!phrase) return 0;
  const fields = fieldsOf(searchText);
  let score = 0;
  for (const token of phrase.split(/\s+/)) {
    let best = 0;
    for (const [field, text] of fields) best = Math.max(best, FIELD_WEIGHTS[field] * quality(token, text));
    if (best === 0) return 0;
    score += best;
  }
  let bonus = 0;
  for (const [field, text] of fields) {
    if (text === phrase) bonus = Math.max(bonus, FIELD_WEIGHTS[field] * 4);
    else if (text.includes(phrase)) bonus = Math.max(bonus, FIELD_WEIGHTS[field] * 2);
  }
  return score + bonus;
}
