// When the shell sends its next heartbeat, and when it warns the game that the limit is near: pure arithmetic on the entitlement.

export interface HeartbeatPlan {
  /** milliseconds until the next heartbeat */
  heartbeatInMs: number;
  /** true when that heartbeat is expected to use up the allowance (the session closes) */
  final: boolean;
  /** for the final heartbeat: milliseconds until `pause` and `limit` are sent to the game */
  warnInMs: number | null;
}

/** How long before the final heartbeat the game hears `pause` and `limit`, to stop and save. */
export const LIMIT_WARNING_MS = 1500;

export function planNext(
  entitlement: GamePlatform.Entitlement,
  intervalSeconds: number,
  warningMs = LIMIT_WARNING_MS,
): HeartbeatPlan {
  const intervalMs = Math.max(1, intervalSeconds) * 1000;
  if (entitlement.unlimited || entitlement.remaining_seconds === null)
    return { heartbeatInMs: intervalMs, final: false, warnInMs: null };
  const remainingMs = Math.max(0, entitlement.remaining_seconds) * 1000;
  if (remainingMs > intervalMs) return { heartbeatInMs: intervalMs, final: false, warnInMs: null };
  // The allowance runs out before the next regular beat: beat exactly when it does, so the server closes the session then.
  return { heartbeatInMs: remainingMs, final: true, warnInMs: Math.max(0, remainingMs - warningMs) };
}

/** "12:05" for a count of seconds; hours shown when there are any ("1:02:05"). */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** formatClock's time in words for screen readers: "4 minutes 59 seconds", "1 hour 5 seconds", "0 seconds". */
export function spokenClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const parts: Array<[number, string]> = [
    [Math.floor(s / 3600), 'hour'],
    [Math.floor((s % 3600) / 60), 'minute'],
    [s % 60, 'second'],
  ];
  const said = parts.filter(([n]) => n > 0).map(([n, unit]) => `${n} ${unit}${n === 1 ? '' : 's'}`);
  return said.length ? said.join(' ') : '0 seconds';
}

/** "1 min 30 s", "13 min 30 s", "2 h 5 min", "0 s": to the second, so that two parts of a whole add up to it. */
export function formatExactDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const parts: Array<[number, string]> = [
    [Math.floor(s / 3600), 'h'],
    [Math.floor((s % 3600) / 60), 'min'],
    [s % 60, 's'],
  ];
  const said = parts.filter(([n]) => n > 0).map(([n, unit]) => `${n} ${unit}`);
  return said.length ? said.join(' ') : '0 s';
}

/** "3 h 20 min", "12 min", "45 s": a duration for sentences. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  if (s < 60) return `${s} s`;
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`;
}
