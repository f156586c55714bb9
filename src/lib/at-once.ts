// Runs a job over many items a few at a time, and returns only once every started job has ended.

/**
 * Calls `job` for each item, at most `limit` at once, in order. The first failure stops new jobs from starting; it
 * is thrown once the running ones have ended (a caller that cleans up after a failure never races a job still running).
 */
export async function eachAtOnce<T>(
  items: readonly T[],
  limit: number,
  job: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const item = items[next++]!;
      try {
        await job(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
}
