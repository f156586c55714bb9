// The one source of "now". Everything that reads the time takes a Clock; tests pass a ManualClock.
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string | number = '2026-06-01T10:00:00Z') {
    this.current = new Date(start).getTime();
  }

  now(): number {
    return this.current;
  }

  set(at: Date | string | number): void {
    this.current = new Date(at).getTime();
  }

  advance(seconds: number): void {
    this.current += seconds * 1000;
  }
}
