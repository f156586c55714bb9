// The play shell (docs/portal.md, "The play shell"): starts the play session, hosts the game in a sandboxed frame, beats while visible,
// answers the game's SDK calls with this game's API routes only, and removes the game when the free time runs out. A
// player signed out while playing logs in again over the paused game; Quit lets the game save before it goes.
import {
  event,
  failure,
  isKnownMethod,
  isRequestMessage,
  localError,
  success,
  type EventName,
  type RequestMessage,
} from '../../sdk/protocol.js';
import { errorPanel, unlimitedPitch } from '../layout.js';
import { ApiError, SDK_HEADER, api, apiUrl } from '../lib/api.js';
import { focusHeading, h, mount, setTitle } from '../lib/dom.js';
import { createForm } from '../lib/forms.js';
import { ensurePlayer, LOGIN_FIELDS, me, type Me } from '../lib/session.js';
import type { Game } from '../lib/types.js';
import { gameFrame } from './frame.js';
import { apiCallFor, resultFor, type ApiCall, type ApiOutcome } from './game-api.js';
import { TabSignal } from './one-tab.js';
import { PlayView } from './play-view.js';
import { QuitHandshake } from './quit.js';
import { formatDuration, planNext } from './schedule.js';

interface StartResult {
  session: string;
  heartbeat_interval: number;
  entry_url: string;
  entitlement: GamePlatform.Entitlement;
}

interface HeartbeatResult {
  credited_seconds: number;
  session_seconds: number;
  entitlement: GamePlatform.Entitlement;
  limit_reached?: boolean;
}

export async function playShell(main: HTMLElement, data: DOMStringMap): Promise<void> {
  const slug = data.slug!;
  const [who, game] = await Promise.all([
    ensurePlayer(),
    api<Game>('GET', `/v1/games/${encodeURIComponent(slug)}`).then((r) => r.data),
  ]);
  setTitle(`Play ${game.name}`);
  if (!who) return screen(main, loginScreen(game));
  let started: StartResult;
  try {
    started = (await api<StartResult>('POST', '/v1/play/start', { body: { game: slug } })).data;
  } catch (error) {
    return screen(main, refusalScreen(game, who, error));
  }
  new ShellSession(main, game, who, started, data.crossOriginIsolated === 'true').run();
}

/** Shows a full-page message instead of the game, and moves focus to its heading. */
function screen(main: HTMLElement, content: HTMLElement): void {
  PlayView.setPlaying(false);
  mount(main, content);
  focusHeading(main);
}

function gameLinks(game: Game): HTMLElement {
  return h(
    'div',
    { class: 'actions' },
    h('a', { class: 'button primary', href: `/games/${encodeURIComponent(game.slug)}` }, `Back to ${game.name}`),
    h('a', { class: 'button', href: '/' }, 'Browse games'),
  );
}

function loginScreen(game: Game): HTMLElement {
  const next = `?next=${encodeURIComponent(location.pathname)}`;
  return h(
    'section',
    { class: 'panel shell-screen', 'data-screen': 'login' },
    h('h1', null, `Log in to play ${game.name}`),
    h(
      'p',
      null,
      'Playing needs an account, so that your time, saves and scores are yours. Free accounts play every day.',
    ),
    h(
      'div',
      { class: 'actions' },
      h('a', { class: 'button primary', href: `/login${next}` }, 'Log in'),
      h('a', { class: 'button', href: `/register${next}` }, 'Create an account'),
    ),
  );
}

function limitScreen(game: Game, entitlement: GamePlatform.Entitlement, during: boolean): HTMLElement {
  return h(
    'section',
    { class: 'panel shell-screen', 'data-screen': 'limit' },
    h('h1', null, during ? 'Your free play time for today is used up' : 'No free play time left today'),
    h(
      'p',
      null,
      `Free players can play ${formatDuration(entitlement.allowance_seconds)} a day, across all games. ${during ? `${game.name} has been closed.` : `${game.name} was not started.`}`,
    ),
    h(
      'p',
      { class: 'reset-note' },
      `Your free time comes back in ${formatDuration(entitlement.resets_in_seconds)}, at midnight.`,
    ),
    unlimitedPitch(),
    gameLinks(game),
  );
}

function premiumScreen(game: Game): HTMLElement {
  return h(
    'section',
    { class: 'panel shell-screen', 'data-screen': 'premium' },
    h('h1', null, `${game.name} is for Unlimited members`),
    h(
      'p',
      null,
      'This game can only be played with an Unlimited membership. Your account is on the free plan: you can still play every other game for your free time each day.',
    ),
    unlimitedPitch(),
    gameLinks(game),
  );
}

function refusalScreen(game: Game, who: Me, error: unknown): HTMLElement {
  if (error instanceof ApiError) {
    if (error.code === 'premium_required') return premiumScreen(game);
    if (error.code === 'limit_reached') return limitScreen(game, who.entitlement, false);
    if (error.status === 401) return loginScreen(game);
    if (error.code === 'game_unavailable' || error.status === 403)
      return h(
        'section',
        { class: 'panel shell-screen', 'data-screen': 'unavailable' },
        h('h1', null, `${game.name} cannot be played right now`),
        h('p', { role: 'alert' }, error.message),
        gameLinks(game),
      );
  }
  // The service is unavailable (503), or cannot be reached: say so, with a way to try again and a way back.
  const retry = h('button', { type: 'button', class: 'button primary' }, 'Retry');
  retry.addEventListener('click', () => location.reload());
  return h(
    'section',
    { class: 'panel shell-screen', 'data-screen': 'error' },
    h('h1', null, `${game.name} could not start`),
    h('p', { role: 'alert' }, (error as Error).message),
    h(
      'div',
      { class: 'actions' },
      retry,
      h('a', { class: 'button', href: `/games/${encodeURIComponent(game.slug)}` }, `Back to ${game.name}`),
    ),
  );
}

class ShellSession {
  private session: string;
  private entitlement: GamePlatform.Entitlement;
  private readonly interval: number;
  private frame: HTMLIFrameElement | null = null;
  /** the game's own origin (games_url): its messages come from there, the shell's go only there */
  private gameOrigin = '';
  private readonly view: PlayView;
  private readonly tabs: TabSignal;
  private beatTimer: ReturnType<typeof setTimeout> | undefined;
  private warnTimer: ReturnType<typeof setTimeout> | undefined;
  private tickTimer: ReturnType<typeof setInterval> | undefined;
  /** when the entitlement was last heard (performance.now), for the local countdown */
  private syncedAt = performance.now();
  private limitAnnounced = false;
  /**
   * playing; quitting (the game saves before it goes); signed out (paused under the login form); taken over (paused
   * here, played in another tab or on another device); or ended for good
   */
  private state: 'playing' | 'quitting' | 'signed-out' | 'taken-over' | 'ended' = 'playing';
  private readonly quitting = new QuitHandshake();
  /** the save the player asked to continue (?continue=slot), looked up once for init() */
  private continuing: Promise<GamePlatform.InitInfo['continue']> | null = null;
  private beating = false;
  /** a heartbeat was asked for while one was in flight: send another when it is back */
  private beatAgain = false;
  /** another tab of this browser said it started this game */
  private otherTabStarted = false;

  constructor(
    private readonly main: HTMLElement,
    private readonly game: Game,
    private readonly who: Me,
    started: StartResult,
    private readonly isolated: boolean,
  ) {
    this.session = started.session;
    this.entitlement = started.entitlement;
    this.interval = started.heartbeat_interval;
    this.entryUrl = started.entry_url;
    this.view = new PlayView(game, started.entitlement.unlimited, {
      quit: () => this.quit(),
      fullScreenChanged: () => this.frame?.focus(),
    });
    this.tabs = new TabSignal(game.slug, () => this.onOtherTab());
  }

  private get playing(): boolean {
    return this.state === 'playing';
  }

  private readonly entryUrl: string;

  run(): void {
    const { stage } = this.view;
    // The listener is in place before the frame exists, so the game's first message is never missed.
    window.addEventListener('message', (e) => this.onMessage(e));
    const hosted = gameFrame(this.entryUrl, this.game.name, this.isolated);
    this.frame = hosted.frame;
    this.gameOrigin = hosted.origin;
    this.frame.addEventListener('load', () => {
      this.view.gameLoaded();
      this.frame?.focus();
    });
    stage.prepend(this.frame);
    mount(this.main, this.view.element);
    PlayView.setPlaying(true);
    this.tabs.started();

    document.addEventListener('visibilitychange', () => this.onVisibility());
    // Leaving the page ends the session; keepalive lets the request outlive the page (a beacon cannot carry the header).
    window.addEventListener('pagehide', () => this.end('navigate'));
    window.addEventListener('pageshow', (e) => {
      if (e.persisted) location.reload(); // restored from the back/forward cache: that session has ended
    });
    this.updateClock();
    if (!document.hidden) this.resume();
  }

  /** Quit: the game hears `quit` and may save (its calls still go through) for up to 2 s; then the session ends. */
  private async quit(): Promise<void> {
    if (this.state === 'quitting') return;
    if (this.playing) {
      this.state = 'quitting';
      this.pauseTimers();
      await this.quitting.ask(() => this.send('quit', { reason: 'quit' }));
    }
    this.end('quit');
    location.assign(`/games/${encodeURIComponent(this.game.slug)}`);
  }

  // ---- heartbeats ----

  private resume(): void {
    this.schedule();
    clearInterval(this.tickTimer);
    this.tickTimer = setInterval(() => this.updateClock(), 1000);
  }

  private pauseTimers(): void {
    clearTimeout(this.beatTimer);
    clearTimeout(this.warnTimer);
    clearInterval(this.tickTimer);
  }

  private schedule(): void {
    clearTimeout(this.beatTimer);
    clearTimeout(this.warnTimer);
    if (!this.playing || document.hidden) return;
    const plan = planNext(this.remainingNow(), this.interval);
    this.beatTimer = setTimeout(() => void this.beat(), plan.heartbeatInMs);
    if (plan.final && !this.limitAnnounced) this.warnTimer = setTimeout(() => this.announceLimit(), plan.warnInMs ?? 0);
  }

  /** The entitlement as it stands now, counting the seconds since it was heard. */
  private remainingNow(): GamePlatform.Entitlement {
    if (this.entitlement.remaining_seconds === null) return this.entitlement;
    const elapsed = (performance.now() - this.syncedAt) / 1000;
    return {
      ...this.entitlement,
      remaining_seconds: Math.max(0, Math.ceil(this.entitlement.remaining_seconds - elapsed)),
    };
  }

  private async beat(): Promise<void> {
    if (!this.playing) return;
    if (this.beating) {
      this.beatAgain = true;
      return;
    }
    this.beating = true;
    try {
      await this.beatOnce();
    } finally {
      this.beating = false;
    }
    if (!this.playing) return;
    if (this.beatAgain) {
      this.beatAgain = false;
      return this.beat();
    }
    this.schedule();
  }

  private async beatOnce(): Promise<void> {
    try {
      const { data } = await api<HeartbeatResult>('POST', '/v1/play/heartbeat', { body: { session: this.session } });
      this.heard(data.entitlement);
      this.send('entitlement', data.entitlement);
      if (data.limit_reached || data.entitlement.limit_reached) this.closeAtLimit();
    } catch (error) {
      if (error instanceof ApiError && (error.status === 410 || error.code === 'session_ended'))
        await this.sessionClosed(error.extra.reason);
      else if (error instanceof ApiError && error.status === 401) this.signedOut();
      // A failed beat (network, 5xx) is retried at the next one; the server credits the gap then.
    }
  }

  // ---- signed out while playing ----

  /** The sign-in ended (401): pause the game and cover it with a login form; the game's calls wait (the SDK holds them). */
  private signedOut(): void {
    if (this.state !== 'playing' && this.state !== 'quitting') return;
    this.state = 'signed-out';
    this.pauseTimers();
    this.send('pause', { reason: 'signed_out' });
    const form = createForm({
      label: 'Log in to keep playing',
      submitLabel: 'Log in and play on',
      fields: LOGIN_FIELDS,
      onSubmit: async (values, handle) => {
        try {
          await api('POST', '/v1/auth/login', { body: { login: values.login, password: values.password } });
        } catch (error) {
          if (error instanceof ApiError && error.status === 401) {
            handle.fields.get('password')!.control.value = '';
            throw new ApiError(401, error.code, 'The email or username and password do not match an account.');
          }
          throw error;
        }
        await this.signedIn();
      },
    });
    this.view.showSignedOut(form.form);
  }

  /**
   * Logged in again: the same player goes on in a new session (the game resumes and the SDK sends the calls it held);
   * another account starts the game again as that player.
   */
  private async signedIn(): Promise<void> {
    const who = await me(true);
    if (!who || who.player.id !== this.who.player.id) return location.reload();
    if (!(await this.restart())) return;
    this.view.hideNotice();
    this.send('resume', { reason: 'signed_in' });
    this.resume();
    this.frame?.focus();
  }

  /** The 410's reason: taken over elsewhere (stop, offer to play here), the limit, or swept while away (start again). */
  private async sessionClosed(reason: unknown): Promise<void> {
    if (reason === 'replaced') return this.takenOver();
    if (reason === 'limit') return this.closeAtLimit();
    await this.restart();
  }

  /** Starts a new session without reloading the game (after the idle sweep, or to play here again); false when refused. */
  private async restart(): Promise<boolean> {
    try {
      const started = (await api<StartResult>('POST', '/v1/play/start', { body: { game: this.game.slug } })).data;
      this.session = started.session;
      this.state = 'playing';
      this.otherTabStarted = false;
      this.tabs.started();
      this.heard(started.entitlement);
      this.schedule();
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'limit_reached') this.closeAtLimit();
      else this.fail(error);
      return false;
    }
  }

  // ---- one game, one tab (one-tab.ts) ----

  /** Another tab started this game: ask the server now whether this session was taken over (a hidden tab asks when shown). */
  private onOtherTab(): void {
    if (!this.playing) return;
    this.otherTabStarted = true;
    if (!document.hidden) void this.beat();
  }

  /** This session was replaced by the same game elsewhere: stop beating, pause the game, and offer to play here. */
  private takenOver(): void {
    if (!this.playing) return;
    this.state = 'taken-over';
    this.pauseTimers();
    this.send('pause', { reason: 'replaced' });
    this.view.showTakenOver(this.otherTabStarted ? 'tab' : 'elsewhere', () => void this.playHere());
  }

  /** Takes the game back: a new session (which the other place will hear of), the same game, resumed. */
  private async playHere(): Promise<void> {
    if (!(await this.restart())) return;
    this.view.hideTakenOver();
    this.send('resume', { reason: 'replaced' });
    this.resume();
    this.frame?.focus();
  }

  private heard(entitlement: GamePlatform.Entitlement): void {
    this.entitlement = entitlement;
    this.syncedAt = performance.now();
    this.updateClock();
  }

  private onVisibility(): void {
    if (!this.playing) return;
    if (document.hidden) this.pauseTimers();
    else {
      void this.beat();
      this.resume();
    }
  }

  // ---- the limit ----

  private announceLimit(): void {
    if (this.limitAnnounced) return;
    this.limitAnnounced = true;
    this.send('pause', { reason: 'limit' });
    this.send('limit', { reason: 'limit', entitlement: this.remainingNow() });
  }

  private closeAtLimit(): void {
    this.announceLimit();
    this.state = 'ended';
    this.pauseTimers();
    // The game goes: its frame (and everything running in it) is removed from the page.
    this.frame?.remove();
    this.frame = null;
    screen(this.main, limitScreen(this.game, { ...this.entitlement, limit_reached: true }, true));
  }

  private fail(error: unknown): void {
    this.end('error');
    this.frame?.remove();
    this.frame = null;
    screen(this.main, errorPanel(`${this.game.name} stopped`, (error as Error).message));
  }

  /** Ends the session (idempotent on the server; sent once from here). */
  private end(reason: 'quit' | 'navigate' | 'hidden' | 'error'): void {
    const wasPlaying = this.playing || this.state === 'quitting';
    this.state = 'ended';
    this.pauseTimers();
    // A session taken over elsewhere is already closed on the server.
    if (wasPlaying)
      void api('POST', '/v1/play/end', { body: { session: this.session, reason }, keepalive: true }).catch(
        () => undefined,
      );
  }

  private updateClock(): void {
    this.view.countdown.show(this.remainingNow().remaining_seconds);
  }

  // ---- the game's messages ----

  private send<E extends EventName>(name: E, data: GamePlatform.EventData[E]): void {
    this.frame?.contentWindow?.postMessage(event(name, data), this.gameOrigin);
  }

  private onMessage(e: MessageEvent): void {
    // Only the game this shell hosts: its window, on the game's origin (a page it navigated to elsewhere is not heard).
    if (!this.frame || e.source !== this.frame.contentWindow || e.origin !== this.gameOrigin) return;
    if (!isRequestMessage(e.data)) return;
    const target = this.frame.contentWindow!;
    void this.answer(e.data).then((reply) => target.postMessage(reply, this.gameOrigin));
  }

  private async answer(request: RequestMessage) {
    const { id, method, params } = request;
    if (!isKnownMethod(method)) return failure(id, localError('unknown_method', `Unknown method ${String(method)}`));
    if (method === 'quit.done') {
      this.quitting.answered();
      return success(id, null);
    }
    // Signed out: answered as the API would, so that the SDK holds the call until the player is back.
    if (this.state === 'signed-out') return failure(id, SIGNED_OUT);
    if (!this.playing && this.state !== 'quitting')
      return failure(id, localError('session_over', 'The play session is over'));
    if (method === 'init') return success(id, await this.initInfo());
    const call = apiCallFor(this.game.slug, this.session, method, params);
    if ('error' in call) return failure(id, call.error);
    const answer = await callApi(call);
    if (answer.status === 401) this.signedOut();
    const outcome = resultFor(method, answer);
    return 'error' in outcome ? failure(id, outcome.error) : success(id, outcome.result);
  }

  /** The slot `?continue=N` names, with its version, when the player has that save (else a new game: null). */
  private continueInfo(): Promise<GamePlatform.InitInfo['continue']> {
    this.continuing ??= (async () => {
      const asked = new URLSearchParams(location.search).get('continue');
      if (asked === null || !/^\d{1,4}$/.test(asked)) return null;
      const slot = Number(asked);
      try {
        const { data } = await api<{ states: GamePlatform.StateSummary[] }>(
          'GET',
          `/v1/games/${encodeURIComponent(this.game.slug)}/states`,
        );
        const save = data.states.find((s) => s.slot === slot);
        return save ? { slot, version: save.version } : null;
      } catch {
        return null; // the game starts new; its own save slots can still load it
      }
    })();
    return this.continuing;
  }

  private async initInfo(): Promise<GamePlatform.InitInfo> {
    const { game, who } = this;
    return {
      local: false,
      game: {
        slug: game.slug,
        name: game.name,
        version: game.version,
        save_slots: game.save_slots,
        orientation: game.orientation,
        leaderboard: game.leaderboard,
      },
      player: {
        id: who.player.id,
        username: who.player.username,
        display_name: who.player.display_name,
        avatar_url: who.player.avatar_url,
      },
      entitlement: this.remainingNow(),
      continue: await this.continueInfo(),
    };
  }
}

const SIGNED_OUT: GamePlatform.ErrorInfo = {
  code: 'unauthenticated',
  message: 'You were signed out: log in again to go on',
  status: 401,
};

/** Makes the API call an SDK request maps to (game-api.ts), with the portal session. */
export async function callApi(call: ApiCall): Promise<ApiOutcome> {
  const headers: Record<string, string> = { ...SDK_HEADER, Accept: 'application/json' };
  if (call.body !== undefined) headers['Content-Type'] = 'application/json';
  try {
    const response = await fetch(apiUrl(call.path, call.query), {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      credentials: 'same-origin',
    });
    return { status: response.status, body: await response.json().catch(() => undefined) };
  } catch {
    return {
      status: 0,
      body: { ok: false, error: { code: 'network_error', message: 'The service cannot be reached' } },
    };
  }
}
