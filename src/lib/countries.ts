// ISO 3166-1 alpha-2 country codes, from i18n-iso-countries' table.
import countries from 'i18n-iso-countries';

/**
 * The library also lists XK (Kosovo), a code ISO keeps free for user assignment, not part of ISO 3166-1:
 * the spec asks for the ISO list, so it is left out.
 */
const NOT_ISO = new Set(['XK']);
const CODES = new Set(Object.keys(countries.getAlpha2Codes()).filter((code) => !NOT_ISO.has(code)));

/** `code` must already be upper-case. */
export function isCountryCode(code: string): boolean {
  return CODES.has(code);
}

export function countryCodeCount(): number {
  return CODES.size;
}
