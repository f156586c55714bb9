// The studio console's listing editor (?view=listing): the game's listing fields (PATCH /v1/studio/games/{slug}) with
// the game's card beside the form, drawn by the catalogue's own renderer as the fields change, and the cover and
// screenshots uploaded as the image's bytes (docs/game-developers.md, "Studio console").
import { api, failureOf, SDK_HEADER, send } from '../../lib/api.js';
import { h, mount, uid } from '../../lib/dom.js';
import { createForm } from '../../lib/forms.js';
import type { Game } from '../../lib/types.js';
import { gameCard } from '../game-card.js';

interface StudioGame {
  slug: string;
  name: string;
  tagline: string | null;
  description: string | null;
  category: string;
  tags: string[];
  orientation: 'any' | 'portrait' | 'landscape';
  requires_premium: boolean;
  status: string;
  cover_url: string | null;
  screenshots: string[];
}

type Values = Record<string, string | boolean>;

const text = (value: string | boolean | undefined) => String(value ?? '').trim();
const tagsOf = (value: string | boolean | undefined) =>
  text(value)
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/** The listing's fields as the form holds them, in the shape PATCH takes (empty tagline and description: cleared). */
function listingOf(values: Values) {
  return {
    name: text(values.name),
    tagline: text(values.tagline) || null,
    description: text(values.description) || null,
    category: text(values.category),
    tags: tagsOf(values.tags),
    orientation: text(values.orientation) as StudioGame['orientation'],
    requires_premium: values.requires_premium === true,
  };
}

/** The game as the catalogue's card reads it: the studio's view of it, with the fields being edited. */
function cardGame(game: StudioGame, values: Values): Game {
  const listing = listingOf(values);
  return { ...game, ...listing, name: listing.name || game.name, cover_url: game.cover_url ?? '' } as unknown as Game;
}

/** Sends an image file as the body of `method path`; the game as it is now. */
async function sendPicture(method: string, path: string, file: File): Promise<StudioGame> {
  const response = await send(path, {
    method,
    headers: { ...SDK_HEADER, Accept: 'application/json', 'Content-Type': file.type || 'application/octet-stream' },
    body: file,
    credentials: 'same-origin',
  });
  if (!response.ok) throw await failureOf(response);
  return ((await response.json()) as { data: StudioGame }).data;
}

export async function listingView(body: HTMLElement, base: string): Promise<void> {
  let { data: game } = await api<StudioGame>('GET', base);
  const preview = h('ul', { class: 'cards' });
  const form = createForm({
    label: 'Listing',
    submitLabel: 'Save the listing',
    fields: [
      { name: 'name', label: 'Name', required: true, value: game.name },
      { name: 'tagline', label: 'Tagline (optional)', value: game.tagline, hint: 'One line under the name.' },
      { name: 'description', label: 'Description (optional)', type: 'textarea', value: game.description },
      {
        name: 'category',
        label: 'Category',
        required: true,
        value: game.category,
        hint: 'Lower-case letters, digits and hyphens, like arcade.',
      },
      { name: 'tags', label: 'Tags (optional)', value: game.tags.join(', '), hint: 'Separated by commas.' },
      {
        name: 'orientation',
        label: 'Orientation',
        type: 'select',
        value: game.orientation,
        options: [
          ['any', 'Any'],
          ['portrait', 'Portrait'],
          ['landscape', 'Landscape'],
        ],
      },
      { name: 'requires_premium', label: 'Unlimited members only', type: 'checkbox', value: game.requires_premium },
    ],
    async onSubmit(values) {
      game = (await api<StudioGame>('PATCH', base, { body: listingOf(values) })).data;
      draw();
      return 'The listing is saved: players see it at once.';
    },
  });
  const values = (): Values => Object.fromEntries([...form.fields].map(([name, f]) => [name, f.value()]));
  const draw = () => mount(preview, gameCard(cardGame(game, values())));
  form.form.addEventListener('input', draw);
  form.form.addEventListener('change', draw);

  const pictures = h('div');
  const pictureStatus = h('p', { role: 'status', class: 'form-status' });
  const pictureAlert = h('div', { class: 'form-error', role: 'alert', hidden: true });
  const picture = async (work: () => Promise<StudioGame>, done: string) => {
    pictureAlert.hidden = true;
    try {
      game = await work();
      pictureStatus.textContent = done;
      draw();
      drawPictures();
    } catch (error) {
      pictureStatus.textContent = '';
      mount(pictureAlert, h('p', null, (error as Error).message));
      pictureAlert.hidden = false;
    }
  };
  const fileInput = (label: string, hint: string, chosen: (file: File) => void) => {
    const id = uid('picture');
    const input = h('input', {
      id,
      type: 'file',
      accept: 'image/png,image/jpeg,image/gif,image/webp',
      'aria-describedby': `${id}-hint`,
    });
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      if (file) chosen(file);
      input.value = '';
    });
    return h(
      'div',
      { class: 'field' },
      h('label', { for: id }, label),
      input,
      h('p', { class: 'hint', id: `${id}-hint` }, hint),
    );
  };
  function drawPictures(): void {
    mount(
      pictures,
      fileInput('Cover', 'JPG, PNG, GIF or WebP: it replaces the build’s cover on the card.', (file) =>
        picture(() => sendPicture('PUT', `${base}/cover`, file), 'The cover is uploaded.'),
      ),
      h(
        'p',
        null,
        h(
          'button',
          {
            type: 'button',
            class: 'button small',
            onclick: () =>
              picture(
                async () => (await api<StudioGame>('DELETE', `${base}/cover`)).data,
                'The build’s cover is the cover again.',
              ),
          },
          'Use the build’s cover',
        ),
      ),
      h('h4', null, 'Screenshots'),
      game.screenshots.length
        ? h(
            'ol',
            { class: 'screenshots' },
            game.screenshots.map((url, i) =>
              h(
                'li',
                null,
                h('img', { src: url, alt: `Screenshot ${i + 1}`, width: 160, loading: 'lazy' }),
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'button small',
                    onclick: () =>
                      picture(
                        async () => (await api<StudioGame>('DELETE', `${base}/screenshots/${i + 1}`)).data,
                        `Screenshot ${i + 1} is removed.`,
                      ),
                  },
                  `Remove screenshot ${i + 1}`,
                ),
              ),
            ),
          )
        : h('p', { class: 'muted' }, 'No screenshots yet.'),
      fileInput('Add a screenshot', 'JPG, PNG, GIF or WebP, added at the end.', (file) =>
        picture(() => sendPicture('POST', `${base}/screenshots`, file), 'The screenshot is added.'),
      ),
    );
  }
  draw();
  drawPictures();
  const previewId = uid('card-preview');
  mount(
    body,
    h('h2', null, 'Listing'),
    h(
      'div',
      { class: 'listing-editor' },
      form.form,
      h(
        'section',
        { class: 'card-preview', 'aria-labelledby': previewId },
        h('h3', { id: previewId }, 'Card preview'),
        h('p', { class: 'hint' }, 'The card players see in the catalogue, as you type.'),
        preview,
      ),
    ),
    h(
      'section',
      { class: 'panel', 'aria-labelledby': `${previewId}-pictures` },
      h('h3', { id: `${previewId}-pictures` }, 'Cover and screenshots'),
      pictureAlert,
      pictures,
      pictureStatus,
    ),
  );
}
