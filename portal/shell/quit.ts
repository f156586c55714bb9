// Quit as the SDK's contract has it (docs/game-developers.md, "Game SDK"): the game hears `quit`, may save, and says
// when it is done (`quit.done`, sent by the SDK); the shell waits for that, at most QUIT_WAIT_MS, then removes it.
import { QUIT_WAIT_MS } from '../../sdk/client.js';

export class QuitHandshake {
  private done: (() => void) | null = null;
  private asked: Promise<void> | null = null;

  /** Sends `quit` once (through `send`) and resolves when the game has answered, or when the wait is over. */
  ask(send: () => void): Promise<void> {
    this.asked ??= new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, QUIT_WAIT_MS);
      this.done = () => {
        clearTimeout(timer);
        resolve();
      };
      send();
    });
    return this.asked;
  }

  /** The game's `quit.done`. */
  answered(): void {
    this.done?.();
  }
}
