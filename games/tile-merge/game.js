// @ts-check
// Tile Merge: 2048 with three save slots (GamePlatform.saves) and a score submitted when the game ends.
(function () {
  const SIZE = 4;
  const FORMAT = 1; // inside every save, for this game's own migrations
  const grid = /** @type {HTMLElement} */ (document.getElementById('grid'));
  const scoreEl = /** @type {HTMLElement} */ (document.getElementById('score'));
  const status = /** @type {HTMLElement} */ (document.getElementById('status'));
  const slotsEl = /** @type {HTMLElement} */ (document.getElementById('slots'));

  /** @type {number[]} */
  let cells = [];
  let score = 0;
  let moves = 0;
  let over = false;
  let paused = false;
  let slotCount = 3;
  /** @type {Map<number, GamePlatform.StateSummary>} */
  let saved = new Map();

  function newGame() {
    cells = new Array(SIZE * SIZE).fill(0);
    score = 0;
    moves = 0;
    over = false;
    spawn();
    spawn();
    render();
  }

  function spawn() {
    const empty = cells.map((v, i) => (v ? -1 : i)).filter((i) => i >= 0);
    if (!empty.length) return;
    cells[empty[Math.floor(Math.random() * empty.length)]] = Math.random() < 0.9 ? 2 : 4;
  }

  /** Slides one line towards its start; returns the new line and the points scored. */
  function slide(line) {
    const values = line.filter((v) => v);
    const out = [];
    let points = 0;
    for (let i = 0; i < values.length; i++) {
      if (values[i] === values[i + 1]) {
        out.push(values[i] * 2);
        points += values[i] * 2;
        i++;
      } else out.push(values[i]);
    }
    while (out.length < SIZE) out.push(0);
    return { line: out, points };
  }

  /** Indexes of each line, listed from the side the tiles move towards. */
  function lines(dir) {
    const result = [];
    for (let a = 0; a < SIZE; a++) {
      const line = [];
      for (let b = 0; b < SIZE; b++) {
        if (dir === 'left') line.push(a * SIZE + b);
        if (dir === 'right') line.push(a * SIZE + (SIZE - 1 - b));
        if (dir === 'up') line.push(b * SIZE + a);
        if (dir === 'down') line.push((SIZE - 1 - b) * SIZE + a);
      }
      result.push(line);
    }
    return result;
  }

  function move(dir) {
    if (over || paused) return;
    let changed = false;
    for (const idx of lines(dir)) {
      const { line, points } = slide(idx.map((i) => cells[i]));
      idx.forEach((cell, k) => {
        if (cells[cell] !== line[k]) changed = true;
        cells[cell] = line[k];
      });
      score += points;
    }
    if (!changed) return;
    moves++;
    spawn();
    render();
    if (!canMove()) endGame('No move left.');
  }

  function canMove() {
    if (cells.includes(0)) return true;
    return ['left', 'up'].some((dir) => lines(dir).some((idx) => idx.some((c, k) => k > 0 && cells[c] === cells[idx[k - 1]])));
  }

  async function endGame(reason) {
    if (over) return;
    over = true;
    if (score <= 0) {
      status.textContent = `${reason} Score 0: nothing to submit.`;
      return;
    }
    status.textContent = `${reason} Submitting ${score} points…`;
    try {
      const result = await GamePlatform.scores.submit(score, { meta: { moves, best_tile: Math.max(...cells) } });
      status.textContent = `${reason} ${score} points: rank #${result.rank.rank}${result.personal_best ? ', a personal best!' : '.'}`;
    } catch (error) {
      status.textContent = `${reason} Score not saved: ${GamePlatform.isError(error) ? error.message : 'error'}`;
    }
  }

  function render() {
    grid.replaceChildren(
      ...cells.map((v, i) => {
        const cell = document.createElement('div');
        cell.className = `cell${v ? ` v${v > 2048 ? 'big' : v}` : ''}`;
        cell.setAttribute('role', 'gridcell');
        cell.setAttribute('aria-label', `row ${Math.floor(i / SIZE) + 1}, column ${(i % SIZE) + 1}: ${v || 'empty'}`);
        cell.textContent = v ? String(v) : '';
        return cell;
      }),
    );
    grid.dataset.board = cells.join(',');
    scoreEl.textContent = String(score);
  }

  // ---- save slots ----

  async function refreshSlots() {
    try {
      saved = new Map((await GamePlatform.saves.list()).map((s) => [s.slot, s]));
    } catch {
      saved = new Map();
    }
    slotsEl.replaceChildren(...Array.from({ length: slotCount }, (_, slot) => slotRow(slot)));
  }

  function slotRow(slot) {
    const info = saved.get(slot);
    const li = document.createElement('li');
    li.dataset.slot = String(slot);
    const label = document.createElement('span');
    label.className = 'label';
    label.textContent = `Slot ${slot + 1}: ${info ? `${info.label ?? 'saved'} (v${info.version})` : 'empty'}`;
    li.append(label, button(`Save`, `Save to slot ${slot + 1}`, () => save(slot)));
    if (info) li.append(button('Load', `Load slot ${slot + 1}`, () => load(slot)), button('Delete', `Delete slot ${slot + 1}`, () => remove(slot)));
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

  async function save(slot, label = `${score} points, ${moves} ${moves === 1 ? "move" : "moves"}`) {
    const known = saved.get(slot);
    try {
      // Saved only over the version this page last saw: another device's newer save is not silently lost.
      const result = await GamePlatform.saves.save(slot, { format: FORMAT, cells, score, moves, over }, { label, expected_version: known ? known.version : 0 });
      status.textContent = `Saved to slot ${slot + 1} (version ${result.version}).`;
    } catch (error) {
      if (GamePlatform.isError(error) && error.code === 'version_conflict') status.textContent = `Slot ${slot + 1} changed elsewhere (now version ${error.details.current_version}); the list is refreshed, save again to overwrite.`;
      else status.textContent = `Not saved: ${GamePlatform.isError(error) ? error.message : 'error'}`;
    }
    await refreshSlots();
  }

  async function load(slot) {
    try {
      const found = await GamePlatform.saves.load(slot);
      if (!found) {
        status.textContent = `Slot ${slot + 1} is empty.`;
        return refreshSlots();
      }
      const data = /** @type {{format: number, cells: number[], score: number, moves: number, over: boolean}} */ (found.state);
      if (data.format !== FORMAT || !Array.isArray(data.cells) || data.cells.length !== SIZE * SIZE) throw new Error('unknown save format');
      cells = data.cells.slice();
      score = data.score;
      moves = data.moves;
      over = data.over;
      render();
      status.textContent = `Loaded slot ${slot + 1}.`;
      grid.focus();
    } catch (error) {
      status.textContent = `Not loaded: ${error instanceof Error ? error.message : 'error'}`;
    }
  }

  async function remove(slot) {
    try {
      await GamePlatform.saves.delete(slot);
      status.textContent = `Slot ${slot + 1} deleted.`;
    } catch (error) {
      status.textContent = `Not deleted: ${GamePlatform.isError(error) ? error.message : 'error'}`;
    }
    await refreshSlots();
  }

  // ---- input: keyboard, swipe (touch and mouse drag), buttons ----

  const KEYS = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down', a: 'left', d: 'right', w: 'up', s: 'down' };
  document.addEventListener('keydown', (event) => {
    const dir = KEYS[/** @type {keyof typeof KEYS} */ (event.key)];
    if (!dir || event.target instanceof HTMLButtonElement) return;
    event.preventDefault();
    move(dir);
  });
  let start = /** @type {{x: number, y: number} | null} */ (null);
  grid.addEventListener('pointerdown', (event) => {
    start = { x: event.clientX, y: event.clientY };
    grid.setPointerCapture(event.pointerId);
  });
  grid.addEventListener('pointerup', (event) => {
    if (!start) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    start = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;
    move(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'right' : 'left') : dy > 0 ? 'down' : 'up');
  });
  for (const b of document.querySelectorAll('[data-dir]')) b.addEventListener('click', () => move(/** @type {HTMLElement} */ (b).dataset.dir));
  document.getElementById('new')?.addEventListener('click', () => {
    newGame();
    status.textContent = 'New game.';
    grid.focus();
  });
  document.getElementById('submit')?.addEventListener('click', () => endGame('Game ended.'));

  // ---- the shell's events ----

  GamePlatform.on('pause', () => {
    paused = true;
    document.body.classList.add('paused');
    // The limit is near: keep this game in the first slot so it can go on tomorrow.
    if (!over && moves > 0) void save(0, `Autosave: ${score} points`);
  });
  GamePlatform.on('limit', () => {
    status.textContent = 'Free play time used up for today; your game is saved in slot 1.';
  });

  newGame();
  grid.focus();
  GamePlatform.init().then(
    (info) => {
      slotCount = info.game.save_slots;
      return refreshSlots();
    },
    () => {
      status.textContent = 'Open this game from the Game Platform to use save slots.';
    },
  );
})();
