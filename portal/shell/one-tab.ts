// One game, one tab. Starting a game takes over the player's session of it in any other tab or device (the server
// closes that one, reason `replaced`). Tabs of this browser hear of it at once through a BroadcastChannel; the tab
// then asks the server (a heartbeat) rather than trusting the message, so two tabs started together cannot both
// stop. Other devices learn it from their next heartbeat's 410 `replaced`. Neither tab starts again on its own.

const CHANNEL = 'gameplatform.play';

interface StartedMessage {
  type: 'started';
  slug: string;
}

const isStarted = (value: unknown): value is StartedMessage =>
  typeof value === 'object' &&
  value !== null &&
  (value as StartedMessage).type === 'started' &&
  typeof (value as StartedMessage).slug === 'string';

export class TabSignal {
  private readonly channel: BroadcastChannel | null =
    typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;

  /** `onOtherTab` runs when another tab of this browser has started the same game. */
  constructor(
    private readonly slug: string,
    onOtherTab: () => void,
  ) {
    this.channel?.addEventListener('message', (e: MessageEvent) => {
      if (isStarted(e.data) && e.data.slug === slug) onOtherTab();
    });
  }

  /** Tells the other tabs that this one has just started the game (a BroadcastChannel never echoes to its sender). */
  started(): void {
    const message: StartedMessage = { type: 'started', slug: this.slug };
    this.channel?.postMessage(message);
  }
}
