// A public profile: who the player is, a share button, their best scores (board main of each game) with their rank,
// and the games they played lately.
import { avatar, errorPanel, formatScore, formatTimestamp } from '../layout.js';
import { ApiError, api } from '../lib/api.js';
import { countryName } from '../lib/countries.js';
import { h, mount, setTitle } from '../lib/dom.js';
import type { Profile } from '../lib/types.js';
import { shareButton } from '../lib/share.js';

/** A game's cover as a small picture beside its name (decorative: the name says which game). */
const thumb = (src: string | null) =>
  src ? h('img', { class: 'cover thumb', src, alt: '', width: 64, height: 36, loading: 'lazy' }) : null;

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
              h(
                'tr',
                null,
                h('th', { scope: 'col' }, 'Game'),
                h('th', { scope: 'col', class: 'num' }, 'Best'),
                h('th', { scope: 'col', class: 'num' }, 'Rank'),
              ),
            ),
            h(
              'tbody',
              null,
              profile.best_scores.map((s) =>
                h(
                  'tr',
                  null,
                  h(
                    'td',
                    null,
                    h(
                      'a',
                      { class: 'game-with-cover', href: `/games/${encodeURIComponent(s.game)}` },
                      thumb(s.cover_url),
                      s.game_name,
                    ),
                  ),
                  h('td', { class: 'num score' }, formatScore(s.best, s.unit)),
                  h('td', { class: 'num' }, `#${s.rank}`),
                ),
              ),
            ),
          )
        : h('p', { class: 'empty' }, 'No scores yet.'),
    ),
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'recent-title' },
      h('h2', { id: 'recent-title' }, 'Played lately'),
      profile.recently_played.length
        ? h(
            'ul',
            { class: 'played-lately' },
            profile.recently_played.map((g) =>
              h(
                'li',
                null,
                h(
                  'a',
                  { class: 'game-with-cover', href: `/games/${encodeURIComponent(g.game)}` },
                  thumb(g.cover_url),
                  g.game_name,
                ),
                h('span', { class: 'muted' }, ` · ${formatTimestamp(g.last_played_at, true)}`),
              ),
            ),
          )
        : h('p', { class: 'empty' }, 'No games played yet.'),
    ),
  );
}
