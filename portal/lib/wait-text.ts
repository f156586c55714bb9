// How long to wait, in the words a player reads ("try again in 10 minutes"), not the API's seconds.

/** "45 seconds", "1 minute", "10 minutes", "1 hour", "2 hours 5 minutes": rounded up, so the wait is never too short. */
export function humanWait(totalSeconds: number): string {
  const s = Math.max(1, Math.ceil(totalSeconds));
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (s < 60) return plural(s, 'second');
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${plural(hours, 'hour')} ${plural(rest, 'minute')}` : plural(hours, 'hour');
}

/** The portal's words for a 429: the API's message counts seconds ("try again in 590 seconds"). */
export function rateLimitedText(retryAfterSeconds: unknown): string {
  return typeof retryAfterSeconds === 'number' && retryAfterSeconds > 0
    ? `Too many attempts. Please try again in ${humanWait(retryAfterSeconds)}.`
    : 'Too many attempts. Please try again later.';
}
