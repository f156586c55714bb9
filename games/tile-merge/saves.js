// @ts-check
// Tile Merge's save slots. Every save names the version it expects (expected_version), so a save made meanwhile on
// another device or in another tab is never overwritten silently: a save the player asked for asks again on a
// conflict (overwrite, save to an empty slot, or keep the other save); the autosave at the limit, which nobody can
// be asked about (the game is removed a moment later), goes to an empty slot instead, or nowhere.

/**
 * @typedef {{ state: unknown, label: string }} Snapshot
 * @typedef {{ slots: HTMLElement, status: HTMLElement, dialog: HTMLDialogElement, snapshot: () => Snapshot, restore: (state: unknown) => boolean }} SaveHooks
 */

/** @param {SaveHooks} game */
// biome-ignore lint/correctness/noUnusedVariables: a classic script: game.js, loaded after it, calls this global
function createSaves(game) {
  const { slots: slotsEl, status, dialog } = game;
  let slotCount = 3;
  /** @type {Map<number, GamePlatform.StateSummary>} the slots as last listed */
  let listed = new Map();
  /** slots this page was told changed elsewhere, and that it has neither saved over nor loaded since */
  const changedElsewhere = new Set();

  const say = (text) => (status.textContent = text);
  const errorText = (error) => (GamePlatform.isError(error) ? error.message : 'error');
  const isConflict = (error) => GamePlatform.isError(error) && error.code === 'version_conflict';
  const emptySlot = () =>
    Array.from({ length: slotCount }, (_, i) => i).find((i) => !listed.has(i) && !changedElsewhere.has(i));

  async function refresh() {
    try {
      listed = new Map((await GamePlatform.saves.list()).map((s) => [s.slot, s]));
    } catch {
      listed = new Map();
    }
    slotsEl.replaceChildren(...Array.from({ length: slotCount }, (_, slot) => slotRow(slot)));
  }

  function slotRow(slot) {
    const info = listed.get(slot);
    const li = document.createElement('li');
    li.dataset.slot = String(slot);
    const label = document.createElement('span');
    label.className = 'label';
    label.textContent = `Slot ${slot + 1}: ${info ? `${info.label ?? 'saved'} (v${info.version})` : 'empty'}`;
    li.append(
      label,
      button('Save', `Save to slot ${slot + 1}`, () => save(slot)),
    );
    if (info)
      li.append(
        button('Load', `Load slot ${slot + 1}`, () => load(slot)),
        button('Delete', `Delete slot ${slot + 1}`, () => remove(slot)),
      );
    return li;
  }

  function button(text, label, onClick) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.setAttribute('aria-label', label);
    b.addEventListener('click', onClick);
    return b;
  }

  /**
   * Saves into `slot` only over `expected` (0: only if empty). Resolves true when saved, false on a conflict
   * (the slot is then marked as changed elsewhere and the list refreshed); other errors are said and resolve false.
   */
  async function put(slot, expected, label = game.snapshot().label) {
    try {
      const result = await GamePlatform.saves.save(slot, game.snapshot().state, { label, expected_version: expected });
      changedElsewhere.delete(slot);
      await refresh(); // the list first, so that what the status says is what the slots show
      say(`Saved to slot ${slot + 1} (version ${result.version}).`);
      return true;
    } catch (error) {
      if (!isConflict(error)) say(`Not saved: ${errorText(error)}`);
      else changedElsewhere.add(slot);
      await refresh();
      return false;
    }
  }

  /** The player's Save button: over the version the list shows; when that slot changed elsewhere, ask first. */
  async function save(slot) {
    if (!changedElsewhere.has(slot) && (await put(slot, listed.get(slot)?.version ?? 0))) return;
    if (changedElsewhere.has(slot)) ask(slot);
  }

  /** Asks what to do with a slot another device or tab changed: overwrite it, use an empty slot, or keep it. */
  function ask(slot) {
    const theirs = listed.get(slot);
    const spare = emptySlot();
    /** @type {HTMLElement} */ (dialog.querySelector('#conflict-title')).textContent =
      `Slot ${slot + 1} was changed on another device`;
    /** @type {HTMLElement} */ (dialog.querySelector('#conflict-text')).textContent = theirs
      ? `It now holds “${theirs.label ?? 'a save'}” (version ${theirs.version}, saved ${theirs.updated_at} UTC), saved on another device or in another tab. Overwrite it with this game?`
      : `Its save was deleted on another device or in another tab. Save this game there?`;
    const overwrite = async () => {
      if (!(await put(slot, theirs?.version ?? 0)) && changedElsewhere.has(slot)) ask(slot); // changed once more meanwhile
    };
    const choices = [button(`Overwrite slot ${slot + 1}`, `Overwrite slot ${slot + 1}`, () => choose(overwrite))];
    if (spare !== undefined)
      choices.push(
        button(`Save to slot ${spare + 1}`, `Save to slot ${spare + 1} instead`, () => choose(() => put(spare, 0))),
      );
    choices.push(
      button('Keep the other save', 'Keep the other save', () =>
        choose(() => say(`Slot ${slot + 1} kept as it was saved elsewhere.`)),
      ),
    );
    /** @type {HTMLElement} */ (dialog.querySelector('#conflict-choices')).replaceChildren(...choices);
    if (!dialog.open) dialog.showModal();
  }

  function choose(action) {
    dialog.close();
    void action();
  }

  /** At `pause` for the limit: slot 1 unless it changed elsewhere, else the first empty slot, else nowhere. */
  async function autosave(label) {
    if (dialog.open) dialog.close(); // nobody is left to answer it
    if (!changedElsewhere.has(0) && (await put(0, listed.get(0)?.version ?? 0, label))) return;
    if (!changedElsewhere.has(0)) return; // not saved for another reason, already said
    const spare = emptySlot();
    if (spare === undefined) say('Not autosaved: slot 1 was changed on another device and no slot is empty.');
    else if (await put(spare, 0, label)) say(`Autosaved to slot ${spare + 1}: slot 1 was changed on another device.`);
  }

  async function load(slot) {
    try {
      const found = await GamePlatform.saves.load(slot);
      if (!found) say(`Slot ${slot + 1} is empty.`);
      else if (!game.restore(found.state)) throw new Error('unknown save format');
      else {
        changedElsewhere.delete(slot);
        say(`Loaded slot ${slot + 1}.`);
        return;
      }
    } catch (error) {
      say(`Not loaded: ${error instanceof Error ? error.message : 'error'}`);
    }
    await refresh();
  }

  async function remove(slot) {
    try {
      await GamePlatform.saves.delete(slot);
      changedElsewhere.delete(slot);
      say(`Slot ${slot + 1} deleted.`);
    } catch (error) {
      say(`Not deleted: ${errorText(error)}`);
    }
    await refresh();
  }

  return {
    /** After init: the game's slot count, and the first listing. */
    start(count) {
      slotCount = count;
      return refresh();
    },
    load,
    autosave,
  };
}
