// @ts-check
// Tile Merge: 2048 with three save slots (saves.js) and a score submitted when the game ends.
(() => {
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
    return ['left', 'up'].some((dir) =>
      lines(dir).some((idx) => idx.some((c, k) => k > 0 && cells[c] === cells[idx[k - 1]])),
    );
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

  /** One row of the board: a row of four gridcells for screen readers; `display: contents` keeps the CSS grid flat. */
  function row(r) {
    const line = document.createElement('div');
    line.className = 'row';
    line.setAttribute('role', 'row');
    for (let c = 0; c < SIZE; c++) {
      const v = cells[r * SIZE + c];
      const cell = document.createElement('div');
      cell.className = `cell${v ? ` v${v > 2048 ? 'big' : v}` : ''}`;
      cell.setAttribute('role', 'gridcell');
      cell.setAttribute('aria-label', `row ${r + 1}, column ${c + 1}: ${v || 'empty'}`);
      cell.textContent = v ? String(v) : '';
      line.append(cell);
    }
    return line;
  }

  function render() {
    grid.replaceChildren(...Array.from({ length: SIZE }, (_, r) => row(r)));
    grid.dataset.board = cells.join(',');
    scoreEl.textContent = String(score);
  }

  // ---- save slots (saves.js) ----

  /** @param {unknown} state a loaded save; false when it is not one of this game's */
  function restore(state) {
    const data = /** @type {{format: number, cells: number[], score: number, moves: number, over: boolean}} */ (state);
    if (!data || data.format !== FORMAT || !Array.isArray(data.cells) || data.cells.length !== SIZE * SIZE)
      return false;
    cells = data.cells.slice();
    score = data.score;
    moves = data.moves;
    over = data.over;
    render();
    grid.focus();
    return true;
  }

  const saves = createSaves({
    slots: slotsEl,
    status,
    dialog: /** @type {HTMLDialogElement} */ (document.getElementById('conflict')),
    snapshot: () => ({
      state: { format: FORMAT, cells, score, moves, over },
      label: `${score} points, ${moves} ${moves === 1 ? 'move' : 'moves'}`,
    }),
    restore,
  });

  // ---- input: keyboard, swipe (touch and mouse drag), buttons ----

  const KEYS = {
    ArrowLeft: 'left',
    ArrowRight: 'right',
    ArrowUp: 'up',
    ArrowDown: 'down',
    a: 'left',
    d: 'right',
    w: 'up',
    s: 'down',
  };
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
  for (const b of document.querySelectorAll('[data-dir]'))
    b.addEventListener('click', () => move(/** @type {HTMLElement} */ (b).dataset.dir));
  document.getElementById('new')?.addEventListener('click', () => {
    newGame();
    status.textContent = 'New game.';
    grid.focus();
  });
  document.getElementById('submit')?.addEventListener('click', () => endGame('Game ended.'));

  // ---- the shell's events ----

  GamePlatform.on('pause', ({ reason }) => {
    paused = true;
    document.body.classList.add('paused');
    // The limit is near: keep this game so it can go on tomorrow. (Replaced: the game goes on in the other tab; no save.)
    if (reason === 'limit' && !over && moves > 0) void saves.autosave(`Autosave: ${score} points`);
    if (reason === 'replaced') status.textContent = 'Paused: you are playing in another tab.';
    if (reason === 'signed_out') status.textContent = 'Paused: log in again to keep playing; your board stays.';
  });
  // Quit: keep the board, unless it is over or untouched. The shell waits for this save (at most 2 s).
  GamePlatform.on('quit', () => {
    if (over || moves === 0) return undefined;
    status.textContent = 'Saving your game…';
    return saves.autosave(`Autosave: ${score} points`);
  });
  GamePlatform.on('resume', () => {
    paused = false;
    document.body.classList.remove('paused');
    status.textContent = 'Back in play.';
    grid.focus();
  });
  GamePlatform.on('limit', () => {
    status.textContent = 'Free play time used up for today; saving your game…';
  });

  newGame();
  grid.focus();
  GamePlatform.init().then(
    // Continue (from the portal's "Continue playing"): the save the player chose, loaded once the slots are listed.
    (info) =>
      saves.start(info.game.save_slots).then(() => (info.continue ? saves.load(info.continue.slot) : undefined)),
    () => {
      status.textContent = 'Open this game from the Game Platform to use save slots.';
    },
  );
})();
