import { describe, expect, it } from 'vitest';
import { gamesUrlWarning } from './game-origin.js';

describe('games_url warnings', () => {
  it('warns when games are on *.localhost but the portal is not', () => {
    expect(
      gamesUrlWarning({ games_url: 'http://{slug}.games.localhost:8080', public_url: 'http://192.168.1.20:8080' }),
    ).toMatch(/only browsers on this machine/);
    expect(
      gamesUrlWarning({
        games_url: 'http://{slug}.games.gameplatform.localhost:8080',
        public_url: 'http://gameplatform.localhost:8080',
      }),
    ).toBeNull();
    expect(
      gamesUrlWarning({ games_url: 'https://{slug}.games.example.com', public_url: 'https://play.example.com' }),
    ).toBeNull();
  });

  it('warns when the portal on bare localhost makes the games another site (their storage third-party)', () => {
    expect(
      gamesUrlWarning({ games_url: 'http://{slug}.games.localhost:8080', public_url: 'http://localhost:8080' }),
    ).toMatch(/different sites/);
    expect(
      gamesUrlWarning({ games_url: 'http://{slug}.games.localhost:8080', public_url: 'http://127.0.0.1:8080' }),
    ).toMatch(/different sites/);
  });
});
