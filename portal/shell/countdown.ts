// The free time left, in the play bar: a clock every second, that time in words for screen readers, an urgent look
// for the last minute, so that a player sees the end coming before the limit screen takes the game away.
import { h } from '../lib/dom.js';
import { formatClock, spokenClock } from './schedule.js';

/** Seconds left from which the clock turns urgent. */
export const URGENT_SECONDS = 60;

export class Countdown {
  readonly element: HTMLElement;
  private readonly clock = h('span', { class: 'time-left', 'aria-hidden': 'true' });
  /** the same time in words for screen readers (read when reached, never announced: the announcer below is) */
  private readonly spoken = h('span', { class: 'visually-hidden' });
  private readonly announcer = h('span', { class: 'visually-hidden', role: 'status' });
  private lastAnnouncedMinute: number | null = null;

  constructor() {
    this.element = h(
      'span',
      { class: 'time-box', 'data-urgent': 'false' },
      h('span', { class: 'time-label' }, 'Time left today '),
      this.clock,
      this.spoken,
      this.announcer,
    );
  }

  /** Shows `remaining` seconds (null: no limit, nothing to show). */
  show(remaining: number | null): void {
    if (remaining === null) return;
    this.clock.textContent = formatClock(remaining);
    const urgent = String(remaining <= URGENT_SECONDS);
    if (this.element.dataset.urgent !== urgent) this.element.dataset.urgent = urgent;
    const minute = Math.ceil(remaining / 60);
    const spoken = spokenClock(remaining);
    if (this.spoken.textContent !== spoken) this.spoken.textContent = spoken;
    // Screen readers hear the time at a few moments, not every second.
    if ((minute === 5 || minute === 1) && this.lastAnnouncedMinute !== minute) {
      this.lastAnnouncedMinute = minute;
      this.announcer.textContent = `${minute === 1 ? 'One minute' : 'Five minutes'} of free play left today.`;
    }
  }
}
