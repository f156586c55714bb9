// Settings: defaults, file, GP_* environment, errors that name the setting, production's refusals.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_SECRET,
  defaultPublicUrl,
  loadConfig,
  publicUrlPortWarning,
  settingLeaves,
} from '../src/config.js';
import { tempDir } from './helpers/temp.js';

const dir = () => tempDir('gp-config-');

describe('config', () => {
  it('has the documented defaults', () => {
    const cwd = dir();
    const c = loadConfig({ env: {}, cwd });
    expect(c.free_seconds_per_day).toBe(900);
    expect(c.reset_timezone).toBe('Europe/Berlin');
    expect(c.heartbeat_interval).toBe(30);
    expect(c.max_heartbeat_gap).toBe(90);
    expect(c.session_idle_timeout).toBe(300);
    expect(c.api.token_ttl_days).toBe(90);
    expect(c.public_url).toBe('http://gameplatform.localhost:8080');
    expect(c.port).toBe(8080);
    expect(c.database_url).toBe(path.join(cwd, 'data', 'gameplatform.sqlite'));
    expect(c.database_kind).toBe('sqlite');
    expect(c.rate_limits.login).toEqual({ max: 10, window_seconds: 60 });
    expect(c.rate_limits.default).toEqual({ max: 600, window_seconds: 60 });
  });

  it('reads gameplatform.config.json and lets GP_* variables override it', () => {
    const cwd = dir();
    writeFileSync(
      path.join(cwd, 'gameplatform.config.json'),
      JSON.stringify({ free_seconds_per_day: 600, api: { token_ttl_days: 30 }, reset_timezone: 'UTC' }),
    );
    const c = loadConfig({ env: { GP_FREE_SECONDS_PER_DAY: '120', GP_RATE_LIMITS_LOGIN_MAX: '3', PORT: '9090' }, cwd });
    expect(c.free_seconds_per_day).toBe(120);
    expect(c.api.token_ttl_days).toBe(30);
    expect(c.reset_timezone).toBe('UTC');
    expect(c.rate_limits.login.max).toBe(3);
    expect(c.port).toBe(9090);
  });

  it('maps every setting to GP_<NAME> with dots as underscores', () => {
    const names = Object.fromEntries(settingLeaves().map((l) => [l.name, l.envName]));
    expect(names['api.token_ttl_days']).toBe('GP_API_TOKEN_TTL_DAYS');
    expect(names['rate_limits.forgot_password.window_seconds']).toBe('GP_RATE_LIMITS_FORGOT_PASSWORD_WINDOW_SECONDS');
  });

  it('recognises a postgres database_url', () => {
    const c = loadConfig({ env: { GP_DATABASE_URL: 'postgres://u@h/db' }, cwd: dir() });
    expect(c.database_kind).toBe('postgres');
  });

  it.each([
    [{ GP_FREE_SECONDS_PER_DAY: 'lots' }, /free_seconds_per_day \(GP_FREE_SECONDS_PER_DAY\)/],
    [{ GP_HEARTBEAT_INTERVAL: '1' }, /heartbeat_interval/],
    [{ GP_RESET_TIMEZONE: 'Mars/Olympus' }, /reset_timezone/],
    [{ GP_PUBLIC_URL: 'ftp://x' }, /public_url/],
    [{ GP_LOG_LEVEL: 'loud' }, /log_level/],
    [{ GP_TLS_CERT: 'a.pem' }, /tls_cert and tls_key/],
    [{ GP_SMTP_URL: 'mail.example.com' }, /smtp_url/],
  ])('stops on a bad value and names the setting (%o)', (env, message) => {
    expect(() => loadConfig({ env, cwd: dir() })).toThrow(message);
  });

  it('names the allowed values of a bad log_level', () => {
    expect(() => loadConfig({ env: { GP_LOG_LEVEL: 'loud' }, cwd: dir() })).toThrow(
      'Setting log_level (GP_LOG_LEVEL): must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
  });

  it.each(['banana', '10.0.0.1,banana', '10.0.0.0/99', '-1', 'true,10.0.0.1', ' , '])(
    'refuses trust_proxy %j and names what it takes',
    (value) => {
      expect(() => loadConfig({ env: { GP_TRUST_PROXY: value }, cwd: dir() })).toThrow(
        /^Setting trust_proxy \(GP_TRUST_PROXY\): .*true, false, a hop count/,
      );
    },
  );

  it.each([
    ['', ''],
    ['false', ''],
    [' true ', 'true'],
    ['2', '2'],
    ['10.0.0.1', '10.0.0.1'],
    ['10.0.0.0/8, 192.168.1.1 ,::1,loopback', '10.0.0.0/8,192.168.1.1,::1,loopback'],
  ])('takes trust_proxy %j (as %j)', (value, kept) => {
    expect(loadConfig({ env: { GP_TRUST_PROXY: value }, cwd: dir() }).trust_proxy).toBe(kept);
  });

  it('refuses an unknown key in the config file', () => {
    const cwd = dir();
    writeFileSync(path.join(cwd, 'gameplatform.config.json'), JSON.stringify({ free_secs: 1 }));
    expect(() => loadConfig({ env: {}, cwd })).toThrow(ConfigError);
  });

  it('refuses a config file that is not JSON', () => {
    const cwd = dir();
    writeFileSync(path.join(cwd, 'gameplatform.config.json'), '{ nope');
    expect(() => loadConfig({ env: {}, cwd })).toThrow(/gameplatform.config.json/);
  });

  it('is frozen', () => {
    const c = loadConfig({ env: {}, cwd: dir() });
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.rate_limits.login)).toBe(true);
  });

  describe('in production', () => {
    const base = {
      NODE_ENV: 'production',
      GP_PUBLIC_URL: 'https://play.example.com',
      GP_TRUST_PROXY: 'true',
      GP_GAMES_URL: 'https://{slug}.play-games.example',
    };
    it('refuses the default secret', () => {
      expect(() => loadConfig({ env: base, cwd: dir() })).toThrow(/secret \(GP_SECRET\)/);
      expect(() => loadConfig({ env: { ...base, GP_SECRET: DEFAULT_SECRET }, cwd: dir() })).toThrow(/GP_SECRET/);
    });
    it('refuses a short secret', () => {
      expect(() => loadConfig({ env: { ...base, GP_SECRET: 'short' }, cwd: dir() })).toThrow(/GP_SECRET/);
    });
    it('needs TLS or a trusted proxy, and an https public_url', () => {
      const secret = 's'.repeat(40);
      expect(() => loadConfig({ env: { ...base, GP_SECRET: secret, GP_TRUST_PROXY: '' }, cwd: dir() })).toThrow(
        /HTTPS only/,
      );
      expect(() =>
        loadConfig({ env: { ...base, GP_SECRET: secret, GP_PUBLIC_URL: 'http://x.example' }, cwd: dir() }),
      ).toThrow(/https:\/\//);
      expect(loadConfig({ env: { ...base, GP_SECRET: secret }, cwd: dir() }).env).toBe('production');
    });
    it("needs an https games_url: game files are never served from the portal's origin", () => {
      const secret = 's'.repeat(40);
      expect(() => loadConfig({ env: { ...base, GP_SECRET: secret, GP_GAMES_URL: '' }, cwd: dir() })).toThrow(
        /games_url \(GP_GAMES_URL\) must be set in production/,
      );
      expect(() =>
        loadConfig({
          env: { ...base, GP_SECRET: secret, GP_GAMES_URL: 'http://{slug}.games.example.com' },
          cwd: dir(),
        }),
      ).toThrow(/games_url.*https/);
    });
  });

  describe('public_url', () => {
    it('follows the listening port and host when unset', () => {
      const url = (env: Record<string, string>) => loadConfig({ env, cwd: dir() });
      expect(url({ PORT: '18080' }).public_url).toBe('http://gameplatform.localhost:18080');
      expect(url({ PORT: '18080' }).public_url_default).toBe(true);
      expect(url({ GP_PORT: '9123' }).public_origin).toBe('http://gameplatform.localhost:9123');
      expect(url({ GP_PORT: '9123' }).games_url).toBe('http://{slug}.games.gameplatform.localhost:9123');
      expect(url({ GP_PUBLIC_URL: 'http://arcade.localhost:9000', PORT: '18080' }).public_url_default).toBe(false);
      expect(defaultPublicUrl(80, 'localhost')).toBe('http://gameplatform.localhost');
      expect(defaultPublicUrl(8080, '0.0.0.0')).toBe('http://gameplatform.localhost:8080');
      expect(defaultPublicUrl(8080, '::')).toBe('http://gameplatform.localhost:8080');
      expect(defaultPublicUrl(8080, '192.168.1.20')).toBe('http://192.168.1.20:8080');
      expect(defaultPublicUrl(8080, 'fd00::5')).toBe('http://[fd00::5]:8080');
    });

    it('must be set in production', () => {
      expect(() => loadConfig({ env: { NODE_ENV: 'production', GP_SECRET: 'x'.repeat(40) }, cwd: dir() })).toThrow(
        /public_url.*must be set/,
      );
    });

    it('warns when its port is not the listening one and no proxy is trusted', () => {
      const config = (env: Record<string, string>) => loadConfig({ env, cwd: dir() });
      expect(publicUrlPortWarning(config({ PORT: '18080' }), 18080)).toBeNull();
      expect(publicUrlPortWarning(config({ GP_PUBLIC_URL: 'http://gameplatform.localhost:8080' }), 18080)).toMatch(
        /names port 8080 but the service listens on port 18080/,
      );
      expect(publicUrlPortWarning(config({ GP_PUBLIC_URL: 'http://example.test' }), 80)).toBeNull();
      expect(publicUrlPortWarning(config({ GP_PUBLIC_URL: 'https://example.test' }), 8443)).toMatch(/port 443/);
      const proxied = config({ GP_PUBLIC_URL: 'https://example.test', GP_TRUST_PROXY: '127.0.0.1' });
      expect(publicUrlPortWarning(proxied, 8080)).toBeNull();
    });
  });

  describe('games_url', () => {
    const games = (env: Record<string, string>) => loadConfig({ env, cwd: dir() }).games_url;

    it("defaults to an origin per game on the portal's own site, under games.gameplatform.localhost", () => {
      expect(loadConfig({ env: {}, cwd: dir() }).public_url).toBe('http://gameplatform.localhost:8080');
      expect(games({})).toBe('http://{slug}.games.gameplatform.localhost:8080');
      expect(games({ GP_PUBLIC_URL: 'http://arcade.localhost:9123' })).toBe(
        'http://{slug}.games.arcade.localhost:9123',
      );
    });

    it('defaults to games.localhost, on the port of public_url, for a portal on localhost or an address', () => {
      expect(games({ GP_PUBLIC_URL: 'http://localhost:8080' })).toBe('http://{slug}.games.localhost:8080');
      expect(games({ GP_PUBLIC_URL: 'http://127.0.0.1:9123' })).toBe('http://{slug}.games.localhost:9123');
      expect(games({ GP_PUBLIC_URL: 'https://localhost' })).toBe('https://{slug}.games.localhost');
    });

    it('takes {slug} as the first label of the host, or as the last segment of the path, in a canonical form', () => {
      expect(games({ GP_GAMES_URL: 'https://{slug}.Games.Example.com:443/' })).toBe('https://{slug}.games.example.com');
      expect(games({ GP_GAMES_URL: 'https://cdn.example.net/play/{slug}/' })).toBe(
        'https://cdn.example.net/play/{slug}',
      );
    });

    it.each([
      ['https://games.example.com', /exactly once/],
      ['https://{slug}.{slug}.example.com', /exactly once/],
      ['https://x{slug}.example.com', /whole label/],
      ['https://{slug}.example.com/games', /no path/],
      ['https://example.com/{slug}/files', /last segment/],
      ['ftp://{slug}.example.com', /http/],
      ['https://{slug}.example.com?x=1', /query/],
      ['https://{slug}.gameplatform.localhost', /directly under the portal's host name/],
      ['http://gameplatform.localhost:9000/{slug}', /portal's own host name/],
    ])('refuses %s', (value, message) => {
      expect(() => games({ GP_GAMES_URL: value })).toThrow(message);
      expect(() => games({ GP_GAMES_URL: value })).toThrow(/games_url \(GP_GAMES_URL\)/);
    });
  });
});

describe('config: upgrade_url', () => {
  it('is unset by default, and takes an http(s) URL from the file or GP_UPGRADE_URL', () => {
    expect(loadConfig({ env: {}, cwd: dir() }).upgrade_url).toBe('');
    expect(
      loadConfig({ env: { GP_UPGRADE_URL: 'https://shop.example.com/unlimited?from=portal' }, cwd: dir() }).upgrade_url,
    ).toBe('https://shop.example.com/unlimited?from=portal');
  });

  it.each(['javascript:alert(1)', 'shop.example.com', '/unlimited', 'https://'])(
    'refuses %s and names the setting',
    (value) => {
      expect(() => loadConfig({ env: { GP_UPGRADE_URL: value }, cwd: dir() })).toThrow(
        /upgrade_url \(GP_UPGRADE_URL\) must be an http:\/\/ or https:\/\/ URL/,
      );
    },
  );
});
