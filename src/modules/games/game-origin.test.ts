import { describe, expect, it } from 'vitest';
import { gamesUrlWarning } from './game-origin.js';

describe('games_url warnings', () => {
  it('warns when games are on *.localhost but the portal is not', () => {
    expect(
      gamesUrlWarning({ games_url: 'http://{slug}.games.localhost:8080', public_url: 'http://192.168.1.20:8080' }),
    ).toMatch(/only browsers on this machine/);
    expect(
      gamesUrlWarning({ games_url: 'http://{slug}.games.localhost:8080', public_url: 'http://localhost:8080' }),
    ).toBeNull();
    expect(
      gamesUrlWarning({ games_url: 'https://{slug}.games.example.com', public_url: 'https://play.example.com' }),
    ).toBeNull();
  });
});
