// The play shell previewing a build (/preview/{slug}/{build}), for the members of the game's studio: the same frame and
// SDK answers as a play, but no play session (not metered, no heartbeat), and the game's saves and scores go to the
// preview's own store (game-api.ts).
import {
  event,
  failure,
  isKnownMethod,
  isRequestMessage,
  localError,
  success,
  type RequestMessage,
} from '../../sdk/protocol.js';
import { errorPanel } from '../layout.js';
import { ApiError, api } from '../lib/api.js';
import { focusHeading, h, mount, setTitle } from '../lib/dom.js';
import { me, type Me } from '../lib/session.js';
import { gameFrame } from './frame.js';
import { apiCallFor, resultFor } from './game-api.js';
import { callApi } from './shell.js';
import { PlayView } from './play-view.js';
import { QuitHandshake } from './quit.js';

interface PreviewStart {
  session: string;
  build: number;
  entry_url: string;
  cross_origin_isolated: boolean;
  game: {
    slug: string;
    name: string;
    version: string;
    save_slots: number;
    orientation: 'any' | 'portrait' | 'landscape';
    leaderboard: GamePlatform.InitInfo['game']['leaderboard'];
  };
}

function screen(main: HTMLElement, content: HTMLElement): void {
  PlayView.setPlaying(false);
  mount(main, content);
  focusHeading(main);
}

function loginScreen(): HTMLElement {
  const next = `?next=${encodeURIComponent(location.pathname)}`;
  return h(
    'section',
    { class: 'panel shell-screen', 'data-screen': 'login' },
    h('h1', null, 'Log in to preview this build'),
    h('p', null, "Previews are for the members of the game's studio."),
    h('div', { class: 'actions' }, h('a', { class: 'button primary', href: `/login${next}` }, 'Log in')),
  );
}

export async function previewShell(main: HTMLElement, data: DOMStringMap): Promise<void> {
  const slug = data.slug!;
  const build = Number(data.preview);
  setTitle(`Preview of build ${build}`);
  const who = await me();
  if (!who) return screen(main, loginScreen());
  let started: PreviewStart;
  try {
    const path = `/v1/studio/games/${encodeURIComponent(slug)}/builds/${build}/preview`;
    started = (await api<PreviewStart>('POST', path)).data;
  } catch (error) {
    const message =
      error instanceof ApiError && error.status === 404
        ? "There is no such build, or you are not a member of this game's studio."
        : (error as Error).message;
    return screen(main, errorPanel('This build cannot be previewed', message));
  }
  setTitle(`Preview: ${started.game.name} build ${started.build}`);
  new PreviewSession(main, started, who).run();
}

class PreviewSession {
  private frame: HTMLIFrameElement | null = null;
  private gameOrigin = '';
  private readonly view: PlayView;

  constructor(
    private readonly main: HTMLElement,
    private readonly started: PreviewStart,
    private readonly who: Me,
  ) {
    const { game, build } = started;
    this.view = new PlayView(
      game,
      true,
      { quit: () => void this.quit(), fullScreenChanged: () => this.frame?.focus() },
      `Preview · build ${build} · ${game.version}`,
    );
  }

  private readonly quitting = new QuitHandshake();

  /** As in play: the game hears `quit` and may save to the preview's store first. */
  private async quit(): Promise<void> {
    await this.quitting.ask(() =>
      this.frame?.contentWindow?.postMessage(event('quit', { reason: 'quit' }), this.gameOrigin),
    );
    history.back();
  }

  run(): void {
    window.addEventListener('message', (e) => this.onMessage(e));
    const hosted = gameFrame(this.started.entry_url, this.started.game.name, this.started.cross_origin_isolated);
    this.frame = hosted.frame;
    this.gameOrigin = hosted.origin;
    this.frame.dataset.preview = String(this.started.build);
    this.frame.addEventListener('load', () => this.frame?.focus());
    this.view.stage.prepend(this.frame);
    mount(this.main, this.view.element);
    PlayView.setPlaying(true);
  }

  private onMessage(e: MessageEvent): void {
    if (!this.frame || e.source !== this.frame.contentWindow || e.origin !== this.gameOrigin) return;
    if (!isRequestMessage(e.data)) return;
    const target = this.frame.contentWindow!;
    void this.answer(e.data).then((reply) => target.postMessage(reply, this.gameOrigin));
  }

  private async answer(request: RequestMessage) {
    const { id, method, params } = request;
    if (!isKnownMethod(method)) return failure(id, localError('unknown_method', `Unknown method ${String(method)}`));
    if (method === 'init') return success(id, this.initInfo());
    if (method === 'quit.done') {
      this.quitting.answered();
      return success(id, null);
    }
    const { slug } = this.started.game;
    const call = apiCallFor(slug, this.started.session, method, params, { build: this.started.build });
    if ('error' in call) return failure(id, call.error);
    const outcome = resultFor(method, await callApi(call));
    return 'error' in outcome ? failure(id, outcome.error) : success(id, outcome.result);
  }

  /** The build's own settings; the player plays without a limit, as an Unlimited member does. */
  private initInfo(): GamePlatform.InitInfo {
    const { game } = this.started;
    const { player, entitlement } = this.who;
    return {
      local: false,
      game: {
        slug: game.slug,
        name: game.name,
        version: game.version,
        save_slots: game.save_slots,
        orientation: game.orientation as GamePlatform.InitInfo['game']['orientation'],
        leaderboard: game.leaderboard,
      },
      player: {
        id: player.id,
        username: player.username,
        display_name: player.display_name,
        avatar_url: player.avatar_url,
      },
      entitlement: { ...entitlement, unlimited: true, remaining_seconds: null, limit_reached: false },
      continue: null,
    };
  }
}
