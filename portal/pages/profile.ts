// A public profile: who the player is, a share button, and their best scores (board main of each game).
import { avatar, errorPanel, formatScore, formatTimestamp } from '../layout.js';
import { ApiError, api } from '../lib/api.js';
import { countryName } from '../lib/countries.js';
import { h, mount, setTitle } from '../lib/dom.js';
import type { PublicPlayer } from '../lib/session.js';
import { shareButton } from '../lib/share.js';

interface Profile {
  player: PublicPlayer;
  unlimited: boolean;
  best_scores: Array<{ game: string; game_name: string; best: number; unit: string }>;
}

export async function profilePage(main: HTMLElement, data: DOMStringMap): Promise<void> {
  let profile: Profile;
  try {
    profile = (await api<Profile>('GET', `/v1/players/${encodeURIComponent(data.username!)}`)).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      return mount(main, errorPanel('Player not found', 'No active player has this username.'));
    throw error;
  }
  const { player } = profile;
  setTitle(player.display_name);
  mount(
    main,
    h(
      'section',
      { class: 'profile-head' },
      avatar(player.avatar_url, 96, ''),
      h(
        'div',
        null,
        h('h1', null, player.display_name),
        h(
          'p',
          { class: 'muted' },
          `@${player.username}`,
          profile.unlimited ? ' ' : '',
          profile.unlimited ? h('span', { class: 'badge premium' }, 'Unlimited') : null,
        ),
        h(
          'p',
          { class: 'muted' },
          player.country ? `${countryName(player.country)} · ` : '',
          `Member since ${formatTimestamp(player.member_since)}`,
        ),
        player.bio ? h('p', { class: 'bio' }, player.bio) : null,
        h(
          'div',
          { class: 'actions share-row' },
          shareButton(player.display_name, `${location.origin}/u/${encodeURIComponent(player.username)}`),
        ),
      ),
    ),
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'best-title' },
      h('h2', { id: 'best-title' }, 'Best scores'),
      profile.best_scores.length
        ? h(
            'table',
            null,
            h(
              'thead',
              null,
              h('tr', null, h('th', { scope: 'col' }, 'Game'), h('th', { scope: 'col', class: 'num' }, 'Best')),
            ),
            h(
              'tbody',
              null,
              profile.best_scores.map((s) =>
                h(
                  'tr',
                  null,
                  h('td', null, h('a', { href: `/games/${encodeURIComponent(s.game)}` }, s.game_name)),
                  h('td', { class: 'num score' }, formatScore(s.best, s.unit)),
                ),
              ),
            ),
          )
        : h('p', { class: 'empty' }, 'No scores yet.'),
    ),
  );
}
