import { describe, expect, it } from 'vitest';
import { countryCodeCount, isCountryCode } from './countries.js';

describe('country codes', () => {
  it('holds the 249 codes of ISO 3166-1 alpha-2', () => {
    expect(countryCodeCount()).toBe(249);
    for (const code of ['DE', 'FR', 'US', 'GB', 'JP', 'AQ', 'SS', 'CW', 'AX']) expect(isCountryCode(code)).toBe(true);
  });

  it('refuses codes that are not assigned ISO codes', () => {
    for (const code of ['UK', 'EU', 'XK', 'AN', 'ZZ', 'de', 'DEU', '276', '']) expect(isCountryCode(code)).toBe(false);
  });
});
