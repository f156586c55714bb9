// @ts-check
// Reflex: three rounds of "wait for green"; the average reaction time in ms is submitted (board main, lower is better).
(() => {
  const ROUNDS = 3;
  const pad = /** @type {HTMLButtonElement} */ (document.getElementById('pad'));
  const big = /** @type {HTMLElement} */ (document.getElementById('big'));
  const small = /** @type {HTMLElement} */ (document.getElementById('small'));
  const status = /** @type {HTMLElement} */ (document.getElementById('status'));
  const board = /** @type {HTMLElement} */ (document.getElementById('board'));
  const rows = /** @type {HTMLElement} */ (document.getElementById('rows'));

  /** @type {'idle'|'wait'|'go'|'early'|'done'|'paused'} */
  let state = 'idle';
  /** @type {number[]} */
  let times = [];
  let shownAt = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  function show(next, title, line) {
    state = next;
    pad.dataset.state = next;
    big.textContent = title;
    small.textContent = line;
  }

  function startRound() {
    clearTimeout(timer);
    show('wait', 'Wait…', `Round ${times.length + 1} of ${ROUNDS}: wait for green`);
    timer = setTimeout(
      () => {
        shownAt = performance.now();
        show('go', 'Now!', 'Hit it!');
      },
      1200 + Math.random() * 1800,
    );
  }

  function hit() {
    if (state === 'paused') return;
    if (state === 'idle' || state === 'done' || state === 'early') {
      if (state !== 'early') times = [];
      status.textContent = '';
      return startRound();
    }
    if (state === 'wait') {
      clearTimeout(timer);
      show('early', 'Too soon!', 'Press again to retry this round');
      return;
    }
    const ms = Math.round(performance.now() - shownAt);
    times.push(ms);
    if (times.length < ROUNDS) {
      status.textContent = `${ms} ms`;
      return startRound();
    }
    finish();
  }

  async function finish() {
    const average = Math.round(times.reduce((a, b) => a + b, 0) / times.length);
    show('done', `${average} ms`, 'Average of 3 rounds. Press to play again');
    status.textContent = 'Submitting your time…';
    try {
      const result = await GamePlatform.scores.submit(average, { meta: { rounds: times } });
      status.textContent = `Rank #${result.rank.rank} of all time${result.personal_best ? ' · new personal best!' : ` · your best: ${result.rank.best} ms`}`;
    } catch (error) {
      status.textContent = GamePlatform.isError(error) ? `Score not saved: ${error.message}` : 'Score not saved.';
    }
    showBoard();
  }

  async function showBoard() {
    try {
      const page = await GamePlatform.leaderboard.read({ period: 'week', limit: 5 });
      rows.replaceChildren(
        ...page.rows.map((row) => {
          const li = document.createElement('li');
          li.textContent = `${row.player.display_name}: ${row.score} ms`;
          return li;
        }),
      );
      board.hidden = page.rows.length === 0;
    } catch {
      board.hidden = true;
    }
  }

  pad.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    hit();
  });
  // Keyboard: the button is focused in the frame; Space and Enter both count (a click from a key is ignored to avoid doubles).
  document.addEventListener('keydown', (event) => {
    if (event.repeat || (event.key !== ' ' && event.key !== 'Enter')) return;
    event.preventDefault();
    hit();
  });
  pad.addEventListener('click', (event) => event.preventDefault());

  GamePlatform.on('pause', ({ reason }) => {
    clearTimeout(timer);
    if (state === 'wait' || state === 'go') times = []; // a round cut short does not count
    show(
      'paused',
      'Paused',
      reason === 'replaced' ? 'You are playing in another tab' : 'Your free time for today is up',
    );
  });
  GamePlatform.on('resume', () => {
    show('idle', 'Reflex', 'Press Space, tap or click to start');
    pad.focus();
  });
  GamePlatform.on('limit', () => {
    status.textContent = 'Free play time used up for today.';
  });

  pad.focus();
  GamePlatform.init().then(showBoard, () => {
    status.textContent = 'Open this game from the Game Platform to save your times.';
  });
})();
