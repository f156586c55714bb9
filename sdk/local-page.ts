// Local mode in a page (docs/game-developers.md, "Local mode: without the platform"): the game's own game.json read beside the page, and the
// platform's events on demand, so that pause, limit and entitlement handlers can be tried without a platform:
// `?gp_simulate=entitlement|limit|pause` (several with commas) plays them on a clock, and a small panel fires each one.
import type { EventName } from './protocol.js';
import type { LocalManifest, LocalStandIn } from './local.js';

/** Seconds between simulated heartbeats (the platform's are 30 s: locally a handler is seen sooner). */
export const SIMULATED_HEARTBEAT_SECONDS = 5;
/** What a simulated free player has left with `limit`: the pause and the limit come 30 s after init(). */
export const SIMULATED_LIMIT_SECONDS = 30;
/** With `pause`, the game is taken over by "another tab" this long after init(). */
export const SIMULATED_PAUSE_AFTER_SECONDS = 3;

type Emit = <E extends EventName>(name: E, data: GamePlatform.EventData[E]) => void;

/** Reads game.json beside the page into the stand-in; a page without one (or opened from the disk) keeps the defaults. */
export async function readManifest(standIn: LocalStandIn, url = new URL('game.json', location.href)): Promise<void> {
  // A page opened from the disk cannot fetch its neighbours (the browser refuses, and says so in the console).
  if (url.protocol === 'file:') return;
  try {
    const response = await fetch(url, { cache: 'no-store' });
    if (!response.ok) return;
    const manifest = (await response.json()) as LocalManifest;
    if (manifest && typeof manifest === 'object') standIn.configure(manifest);
  } catch {
    // no game.json (file://, a 404 page that is not JSON): the stand-in's defaults
  }
}

/** The events asked for in the page's URL (`?gp_simulate=limit,pause`), or null when the parameter is absent. */
export function simulationFlags(search: string): Set<string> | null {
  const params = new URLSearchParams(search);
  if (!params.has('gp_simulate')) return null;
  const flags = params.getAll('gp_simulate').flatMap((value) => value.split(','));
  return new Set(flags.map((flag) => flag.trim().toLowerCase()).filter(Boolean));
}

const day = () => new Date().toISOString().slice(0, 10);

/** Plays the platform's events to the game: on a clock from init() for the flags, and from the panel's buttons. */
export class Simulator {
  private remaining: number;
  private timers: Array<ReturnType<typeof setTimeout>> = [];
  private started = false;
  private limited = false;
  onChange: (state: string) => void = () => undefined;

  constructor(
    private readonly standIn: LocalStandIn,
    private readonly emit: Emit,
    private readonly flags: Set<string>,
  ) {
    this.remaining = flags.has('limit') ? SIMULATED_LIMIT_SECONDS : 900;
    // A free player's day, counting down, as soon as the game asks init() (else the Unlimited stand-in player).
    if (flags.has('limit') || flags.has('entitlement')) standIn.setEntitlement(this.entitlement());
  }

  /** Starts the clock once, when the game first calls init(). */
  start(): void {
    if (this.started) return;
    this.started = true;
    if (this.flags.has('limit') || this.flags.has('entitlement')) {
      const beat = setInterval(() => {
        this.remaining = Math.max(0, this.remaining - SIMULATED_HEARTBEAT_SECONDS);
        if (this.limited) return clearInterval(beat);
        this.heartbeat();
        if (this.flags.has('limit') && this.remaining <= SIMULATED_HEARTBEAT_SECONDS) this.limit();
      }, SIMULATED_HEARTBEAT_SECONDS * 1000);
      this.timers.push(beat);
    }
    if (this.flags.has('pause')) this.timers.push(setTimeout(() => this.pause(), SIMULATED_PAUSE_AFTER_SECONDS * 1000));
  }

  entitlement(): GamePlatform.Entitlement {
    return {
      unlimited: false,
      allowance_seconds: 900,
      used_seconds: 900 - this.remaining,
      remaining_seconds: this.remaining,
      limit_reached: this.remaining === 0,
      resets_in_seconds: 3600,
      day: day(),
    };
  }

  /** `entitlement`, as after a heartbeat. */
  heartbeat(): void {
    if (this.limited) return;
    this.standIn.setEntitlement(this.entitlement());
    this.emit('entitlement', this.entitlement());
    this.onChange(`entitlement: ${this.remaining} s left`);
  }

  /** `pause` with reason `replaced`: the game is played in another tab; resume() plays it here again. */
  pause(): void {
    if (this.limited) return;
    this.emit('pause', { reason: 'replaced' });
    this.onChange('paused: playing in another tab');
  }

  resume(): void {
    if (this.limited) return;
    this.emit('resume', { reason: 'replaced' });
    this.onChange('resumed');
  }

  /** `pause` and `limit`, as just before the free time runs out; then every call is refused, as the shell does. */
  limit(): void {
    if (this.limited) return;
    this.limited = true;
    this.remaining = 0;
    const entitlement = this.entitlement();
    this.emit('pause', { reason: 'limit' });
    this.emit('limit', { reason: 'limit', entitlement });
    this.standIn.close();
    for (const timer of this.timers) clearTimeout(timer);
    this.onChange('limit: on the platform the game is removed now');
  }
}

/** The panel: one button per event, and what was last played. In a shadow root, so neither page nor panel styles leak. */
export function simulationPanel(simulator: Simulator): HTMLElement {
  const host = document.createElement('gameplatform-simulation');
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = `<style>
    :host { position: fixed; right: 8px; bottom: 8px; z-index: 2147483647; }
    section { font: 12px/1.4 system-ui, sans-serif; background: #111827; color: #f9fafb; padding: 6px 8px;
      border-radius: 6px; box-shadow: 0 2px 8px rgb(0 0 0 / 40%); max-width: 260px; }
    h2 { font-size: 12px; margin: 0 0 4px; }
    button { font: inherit; margin: 2px 2px 0 0; padding: 2px 6px; cursor: pointer; }
    p { margin: 4px 0 0; }
  </style>
  <section role="region" aria-label="Game Platform simulation">
    <h2>Game Platform: local mode</h2>
    <button type="button" data-event="entitlement">entitlement</button><button type="button" data-event="pause">pause</button><button type="button" data-event="resume">resume</button><button type="button" data-event="limit">limit</button>
    <p role="status"></p>
  </section>`;
  const status = root.querySelector('p')!;
  simulator.onChange = (state) => {
    status.textContent = state;
    host.dataset.state = state;
  };
  root.addEventListener('click', (event) => {
    const name = (event.target as HTMLElement).closest('button')?.dataset.event;
    if (name === 'entitlement') simulator.heartbeat();
    else if (name === 'pause') simulator.pause();
    else if (name === 'resume') simulator.resume();
    else if (name === 'limit') simulator.limit();
  });
  return host;
}
