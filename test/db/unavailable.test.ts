// Which errors mean "the database is unreachable now" (503, retried at start), and the start's wait with backoff.
import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, isDatabaseUnavailable, rootMessage } from '../../src/db/unavailable.js';
import { whileDatabaseUnreachable } from '../../src/db/wait.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('recognises lost, refused and exhausted connections on either database', () => {
    for (const code of [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      '57P01',
      '57P02',
      '57P03',
      '53300',
      '08006',
      '08001',
      '25006',
      'SQLITE_BUSY',
    ]) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Client has encountered a connection error and is not queryable'))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(
      isDatabaseUnavailable(new DatabaseUnavailableError(withCode('28P01', 'password authentication failed'))),
    ).toBe(true);
    // wrapped (a failed migration) or gathered (a host with several addresses)
    expect(isDatabaseUnavailable(new Error('Migration x failed', { cause: withCode('57P01') }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]))).toBe(true);
  });

  it('finds the innermost message for the log', () => {
    expect(
      rootMessage(
        new Error('a', {
          cause: new DatabaseUnavailableError(
            new AggregateError([withCode('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432')]),
          ),
        }),
      ),
    ).toBe('connect ECONNREFUSED ::1:5432');
    expect(rootMessage(withCode('57P01', 'terminating connection due to administrator command'))).toBe(
      'terminating connection due to administrator command',
    );
  });

  it('leaves bugs and constraint violations alone', () => {
    for (const code of ['23505', '42P01', '22P02', '40P01', 'SQLITE_CONSTRAINT_UNIQUE'])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('Connection terminated')).toBe(false);
  });
});

describe('whileDatabaseUnreachable', () => {
  function fakeTime() {
    let now = 0;
    const slept: number[] = [];
    const warnings: string[] = [];
    return {
      slept,
      warnings,
      options: (timeoutMs: number) => ({
        timeoutMs,
        now: () => now,
        sleep: async (ms: number) => {
          slept.push(ms);
          now += ms;
        },
        log: { warn: (m: string) => warnings.push(m), info: () => undefined },
      }),
    };
  }

  it('retries an unreachable database with a growing delay, saying so, until it answers', async () => {
    const time = fakeTime();
    let attempts = 0;
    const result = await whileDatabaseUnreachable(
      'migrating',
      async () => {
        if (++attempts < 7)
          throw new Error('Migrating failed: database unavailable', {
            cause: withCode('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:5432'),
          });
        return ['applied 0001'];
      },
      time.options(60_000),
    );
    expect(result).toEqual(['applied 0001']);
    expect(time.slept).toEqual([500, 1000, 2000, 4000, 8000, 10_000]);
    expect(time.warnings[0]).toBe(
      'the database cannot be reached (connect ECONNREFUSED 10.0.0.5:5432) while migrating; retrying in 0.5 s (gives up after 60 s)',
    );
  });

  it('gives up after the timeout with the reason, and at once with 0', async () => {
    const time = fakeTime();
    const refused = () => Promise.reject(withCode('57P03', 'the database system is starting up'));
    await expect(whileDatabaseUnreachable('migrating', refused, time.options(5000))).rejects.toThrow(
      'The database cannot be reached (the database system is starting up); gave up migrating after 5 s (database_connect_timeout_seconds)',
    );
    expect(time.slept.reduce((a, b) => a + b, 0)).toBe(5000);
    const once = fakeTime();
    await expect(whileDatabaseUnreachable('migrating', refused, once.options(0))).rejects.toThrow(
      /gave up migrating after 0 s/,
    );
    expect(once.slept).toEqual([]);
  });

  it('does not retry any other error', async () => {
    const time = fakeTime();
    let attempts = 0;
    const broken = async () => {
      attempts++;
      throw new Error('Migration 0001 failed: syntax error', { cause: withCode('42601') });
    };
    await expect(whileDatabaseUnreachable('migrating', broken, time.options(60_000))).rejects.toThrow('syntax error');
    expect(attempts).toBe(1);
  });
});
