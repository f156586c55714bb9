// The studio console's developer keys (?view=keys): the game's keys listed with their prefix and last use, a new key
// made with the scopes asked for and shown once (with a Copy button), and a key revoked after a confirming second press
// (docs/game-developers.md, "Studio console").
import { type ApiError, api } from '../../lib/api.js';
import { dataTable, h, mount, uid } from '../../lib/dom.js';
import { createForm } from '../../lib/forms.js';

interface Key {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
interface NewKey {
  id: number;
  name: string;
  key: string;
}

/** The scopes a developer key may hold (docs/backend-developers.md and docs/game-developers.md, "Publish your game"). */
const SCOPES: Array<[scope: string, what: string]> = [
  ['states:read', 'read players’ saves'],
  ['states:write', 'write players’ saves'],
  ['scores:write', 'submit scores'],
  ['players:read', 'read players’ public profiles'],
  ['stats:read', 'read the game’s numbers'],
  ['builds:write', 'upload and list builds (CI)'],
  ['builds:release', 'release and roll back builds (CI)'],
];

export async function keysView(body: HTMLElement, base: string): Promise<void> {
  const list = h('div');
  const status = h('p', { role: 'status', class: 'form-status' });
  const reveal = h('div', { class: 'token-reveal', hidden: true });
  let revealedId: number | null = null;

  async function refresh(): Promise<void> {
    const { data } = await api<{ keys: Key[] }>('GET', `${base}/keys`);
    if (revealedId !== null && data.keys.some((k) => k.id === revealedId && k.revoked_at)) {
      revealedId = null;
      reveal.hidden = true;
      mount(reveal);
    }
    mount(
      list,
      dataTable(
        'Developer keys',
        ['Name', 'Starts with', 'Scopes', 'Created', 'Last used', 'State'],
        data.keys.map((k) => [
          k.name,
          h('code', null, `${k.prefix}…`),
          k.scopes.join(', '),
          k.created_at,
          k.last_used_at ?? 'Never',
          k.revoked_at ? `Revoked ${k.revoked_at}` : revokeButton(k),
        ]),
      ),
    );
  }

  function revokeButton(key: Key): HTMLElement {
    const button = h('button', { type: 'button', class: 'button small danger' }, `Revoke ${key.name}`);
    let armed = false;
    button.addEventListener('click', async () => {
      // A second press confirms: whatever uses the key gets 401 from then on.
      if (!armed) {
        armed = true;
        button.textContent = `Confirm: revoke ${key.name}`;
        return;
      }
      button.disabled = true;
      try {
        await api('DELETE', `${base}/keys/${key.id}`);
        status.textContent = `Key “${key.name}” is revoked.`;
      } catch (error) {
        status.textContent = `Refused: ${(error as ApiError).message}`;
      }
      await refresh();
    });
    return button;
  }

  const legendId = uid('scopes');
  const boxes = SCOPES.map(([scope, what]) => {
    const id = uid('scope');
    const box = h('input', { id, type: 'checkbox', name: 'scopes', value: scope });
    return {
      box,
      wrapper: h(
        'div',
        { class: 'field field-check' },
        box,
        h('label', { for: id }, h('code', null, scope), ` ${what}`),
      ),
    };
  });
  const scopesError = h('p', { class: 'field-error', id: `${legendId}-error`, hidden: true });
  const create = createForm({
    label: 'Create a developer key',
    submitLabel: 'Create key',
    fields: [{ name: 'name', label: 'Key name (optional)', maxlength: 80, hint: 'What uses it, like “CI deploys”.' }],
    extra: h(
      'fieldset',
      { 'aria-describedby': `${legendId}-error` },
      h('legend', { id: legendId }, 'Scopes'),
      boxes.map((b) => b.wrapper),
      scopesError,
    ),
    async onSubmit(values, handle) {
      const scopes = boxes.filter((b) => b.box.checked).map((b) => b.box.value);
      scopesError.hidden = scopes.length > 0;
      scopesError.textContent = scopes.length ? '' : 'Choose at least one scope.';
      if (!scopes.length) {
        boxes[0]!.box.focus();
        return;
      }
      const name = String(values.name).trim();
      const { data } = await api<NewKey>('POST', `${base}/keys`, { body: { scopes, ...(name ? { name } : {}) } });
      const valueId = uid('new-key');
      const value = h('input', {
        class: 'token-value',
        id: valueId,
        readonly: true,
        value: data.key,
        'aria-describedby': `${valueId}-hint`,
      });
      const copy = h('button', { type: 'button', class: 'button small' }, 'Copy');
      copy.addEventListener('click', () => {
        value.select();
        void navigator.clipboard?.writeText(data.key).then(() => (copy.textContent = 'Copied'));
      });
      mount(
        reveal,
        h('label', { for: valueId }, `Your new key “${data.name}”`),
        h('div', { class: 'inline' }, value, copy),
        h(
          'p',
          { class: 'hint', id: `${valueId}-hint` },
          'Copy it now: it is shown only once. Send it as Authorization: Bearer <key>.',
        ),
      );
      reveal.hidden = false;
      revealedId = data.id;
      (handle.fields.get('name')!.control as HTMLInputElement).value = '';
      for (const b of boxes) b.box.checked = false;
      await refresh();
      value.focus();
      return `Key “${data.name}” is created.`;
    },
  });

  mount(
    body,
    h('h2', null, 'Developer keys'),
    h(
      'p',
      null,
      'A developer key works for this game only: for its backend (saves, scores, players, numbers) or for deploying from CI.',
    ),
    list,
    status,
    reveal,
    h('h3', null, 'Create a key'),
    create.form,
  );
  await refresh();
}
