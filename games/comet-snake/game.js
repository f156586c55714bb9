// @ts-check
// Comet Snake: snake on a wrapping 20×20 field; eat comets (10 points each), the score is submitted when the snake bites itself.
(() => {
  const N = 20;
  const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('space'));
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  const scoreEl = /** @type {HTMLElement} */ (document.getElementById('score'));
  const status = /** @type {HTMLElement} */ (document.getElementById('status'));
  const cell = canvas.width / N;
  const DIRS = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };

  /** @type {Array<[number, number]>} */
  let snake = [];
  /** @type {[number, number]} */
  let dir = [1, 0];
  /** @type {Array<[number, number]>} */
  let queue = [];
  /** @type {[number, number]} */
  let comet = [0, 0];
  let score = 0;
  let running = false;
  let stopped = false;
  /** the snake was moving when another tab took the game: it moves on when the player plays here again */
  let held = false;
  let last = 0;
  let step = 160;

  function reset() {
    snake = [
      [8, 10],
      [7, 10],
      [6, 10],
    ];
    dir = [1, 0];
    queue = [];
    score = 0;
    step = 160;
    placeComet();
    draw();
    scoreEl.textContent = '0';
  }

  function placeComet() {
    do comet = [Math.floor(Math.random() * N), Math.floor(Math.random() * N)];
    while (snake.some(([x, y]) => x === comet[0] && y === comet[1]));
  }

  function start() {
    if (stopped) return;
    if (!running) {
      reset();
      running = true;
      status.textContent = 'Go!';
      last = performance.now();
      requestAnimationFrame(loop);
    }
    canvas.focus();
  }

  function steer(name) {
    const next = DIRS[/** @type {keyof typeof DIRS} */ (name)];
    if (!next) return;
    if (!running) return start();
    const prev = queue.length ? queue[queue.length - 1] : dir;
    if (next[0] === -prev[0] && next[1] === -prev[1]) return; // no turning back into yourself
    if (queue.length < 3) queue.push(/** @type {[number, number]} */ (next));
  }

  function loop(now) {
    if (!running) return;
    while (now - last >= step) {
      last += step;
      tick();
      if (!running) return;
    }
    draw();
    requestAnimationFrame(loop);
  }

  function tick() {
    dir = queue.shift() ?? dir;
    const head = /** @type {[number, number]} */ ([(snake[0][0] + dir[0] + N) % N, (snake[0][1] + dir[1] + N) % N]);
    if (snake.some(([x, y]) => x === head[0] && y === head[1])) return crash();
    snake.unshift(head);
    if (head[0] === comet[0] && head[1] === comet[1]) {
      score += 10;
      scoreEl.textContent = String(score);
      step = Math.max(70, step - 4);
      placeComet();
    } else snake.pop();
  }

  async function crash() {
    running = false;
    draw();
    if (!score) {
      status.textContent = 'Bitten! Press Start to try again.';
      return;
    }
    status.textContent = `Bitten! ${score} points. Submitting…`;
    try {
      const result = await GamePlatform.scores.submit(score, { meta: { length: snake.length } });
      status.textContent = `${score} points: rank #${result.rank.rank}${result.personal_best ? ', a personal best!' : '.'} Press Start to play again.`;
    } catch (error) {
      status.textContent = `Score not saved: ${GamePlatform.isError(error) ? error.message : 'error'}`;
    }
  }

  function draw() {
    ctx.fillStyle = '#111637';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#fbbf24';
    ctx.beginPath();
    ctx.arc(comet[0] * cell + cell / 2, comet[1] * cell + cell / 2, cell * 0.4, 0, Math.PI * 2);
    ctx.fill();
    snake.forEach(([x, y], i) => {
      ctx.fillStyle = i === 0 ? '#ede9fe' : '#a78bfa';
      ctx.fillRect(x * cell + 1, y * cell + 1, cell - 2, cell - 2);
    });
  }

  const KEYS = {
    ArrowUp: 'up',
    ArrowDown: 'down',
    ArrowLeft: 'left',
    ArrowRight: 'right',
    w: 'up',
    s: 'down',
    a: 'left',
    d: 'right',
  };
  document.addEventListener('keydown', (event) => {
    if (event.key === ' ' && !(event.target instanceof HTMLButtonElement)) {
      event.preventDefault();
      return start();
    }
    const name = KEYS[/** @type {keyof typeof KEYS} */ (event.key)];
    if (!name) return;
    event.preventDefault();
    steer(name);
  });
  let touch = /** @type {{x: number, y: number} | null} */ (null);
  canvas.addEventListener('pointerdown', (event) => {
    touch = { x: event.clientX, y: event.clientY };
    if (!running) start();
  });
  canvas.addEventListener('pointerup', (event) => {
    if (!touch) return;
    const dx = event.clientX - touch.x;
    const dy = event.clientY - touch.y;
    touch = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 20) return;
    steer(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'right' : 'left') : dy > 0 ? 'down' : 'up');
  });
  for (const b of document.querySelectorAll('[data-dir]'))
    b.addEventListener('click', () => steer(/** @type {HTMLElement} */ (b).dataset.dir ?? ''));
  document.getElementById('start')?.addEventListener('click', start);

  GamePlatform.on('pause', ({ reason }) => {
    if (reason === 'replaced') {
      // Played in another tab now: hold the snake where it is, and go on if the player comes back here.
      held = running;
      running = false;
      stopped = true;
      status.textContent = 'Paused: you are playing in another tab.';
      return;
    }
    running = false;
    stopped = true;
    status.textContent = 'Paused: your play time is up.';
  });
  GamePlatform.on('resume', () => {
    stopped = false;
    if (!held) return void (status.textContent = 'Press Start, Space or tap the field.');
    held = false;
    running = true;
    status.textContent = 'Go!';
    last = performance.now();
    requestAnimationFrame(loop);
    canvas.focus();
  });

  reset();
  canvas.focus();
  GamePlatform.init().catch(() => {
    status.textContent = 'Open this game from the Game Platform to keep your scores.';
  });
})();
