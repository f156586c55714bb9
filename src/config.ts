// Settings: defaults, then gameplatform.config.json, then GP_* environment variables; parsed once, typed, frozen.
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Type, type Static, type TSchema, Kind } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import proxyAddr from '@fastify/proxy-addr';
import { defaultGamesUrl, parseGamesUrl, sharesPortalHost } from './lib/games-url.js';
import { tracingSettings, type TracingSettings } from './lib/tracing-settings.js';

const RateLimit = (max: number, windowSeconds: number, what: string) =>
  Type.Object(
    {
      max: Type.Integer({ minimum: 1, default: max, description: `requests allowed per window (${what})` }),
      window_seconds: Type.Integer({
        minimum: 1,
        default: windowSeconds,
        description: `window length in seconds (${what})`,
      }),
    },
    { additionalProperties: false, default: {} },
  );

/** Every setting, with the spec's names. The schema drives parsing, the README table and the OpenAPI description. */
export const SettingsSchema = Type.Object(
  {
    free_seconds_per_day: Type.Integer({
      minimum: 0,
      maximum: 86400,
      default: 900,
      description: 'free play allowance per calendar day, in seconds',
    }),
    reset_timezone: Type.String({
      default: 'Europe/Berlin',
      description: 'IANA zone whose midnight resets the daily counter and bounds leaderboard periods',
    }),
    heartbeat_interval: Type.Integer({
      minimum: 5,
      maximum: 600,
      default: 30,
      description: 'seconds between heartbeats, told to the shell',
    }),
    rating_min_votes: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      default: 10,
      description: "votes a game needs before its rating's percentage is shown (fewer: percent is null)",
    }),
    max_heartbeat_gap: Type.Integer({
      minimum: 1,
      maximum: 3600,
      default: 90,
      description: 'most seconds one heartbeat credits',
    }),
    session_idle_timeout: Type.Integer({
      minimum: 10,
      maximum: 86400,
      default: 300,
      description: 'seconds without a heartbeat before the sweep closes a play session',
    }),
    api: Type.Object(
      {
        token_ttl_days: Type.Integer({
          minimum: 1,
          maximum: 3650,
          default: 90,
          description: 'player token lifetime in days',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    guests: Type.Object(
      {
        per_ip_per_day: Type.Integer({
          minimum: 0,
          maximum: 1_000_000,
          default: 20,
          description:
            "new guest players (POST /v1/auth/guest) one address may make per day in reset_timezone (behind trust_proxy, the client's address; IPv6 by its /64); past it, 429 guest_limit_reached and the portal asks to log in. 0: no guests at all",
        }),
        idle_days: Type.Integer({
          minimum: 1,
          maximum: 3650,
          default: 30,
          description:
            'a guest whose tokens have not been used for this many days is purged with everything attached (saves, scores, playtime) by the hourly sweep',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    public_url: Type.String({
      default: '',
      description:
        'origin used in URLs, mail links and the Origin check; unset: http://gameplatform.localhost:<port>, on the port the service listens on (http://<host>:<port> when host is an address other than the loopback or every interface); the default name reaches this machine without DNS, and portal pages asked on localhost or 127.0.0.1 are redirected to it; required in production',
    }),
    games_url: Type.String({
      default: '',
      description:
        "where game files are served, on an origin that is not the portal's: https://{slug}.games.example.com (an origin per game) or https://games.example.com/{slug} (one origin for all); unset: http://{slug}.games.<host of public_url>:<port> outside production when public_url is a *.localhost name (the portal's own site, so games keep their storage), else http://{slug}.games.localhost:<port>; required in production",
    }),
    upgrade_url: Type.String({
      default: '',
      description:
        'where the portal\'s "Get Unlimited" links go (your shop or billing page), an http:// or https:// URL; unset: the Unlimited pitch shows no link',
    }),
    data_dir: Type.String({ default: './data', description: 'avatars, game files and the default SQLite file' }),
    database_url: Type.String({
      default: '',
      description: 'a SQLite file path, or postgres://…; default <data_dir>/gameplatform.sqlite',
    }),
    database_connect_timeout_seconds: Type.Integer({
      minimum: 0,
      maximum: 86400,
      default: 60,
      description:
        'at start, how long to keep retrying (with backoff) a database that cannot be reached before giving up; 0: give up at once',
    }),
    database_pool_size: Type.Integer({
      minimum: 0,
      maximum: 1000,
      default: 0,
      description:
        "PostgreSQL: connections each instance's request pool opens at most (a request waits for a free one); 0: sized for the host, 10 or twice the CPUs the process may use, whichever is more. Each instance also holds one for the readiness probe and one for the credential cache's listener",
    }),
    readiness_timeout_ms: Type.Integer({
      minimum: 50,
      maximum: 60_000,
      default: 1000,
      description:
        'how long GET /readyz waits for the database (on a connection of its own, never behind requests) before answering 503; give the probe a longer timeout than this',
    }),
    credential_cache: Type.Boolean({
      default: true,
      description:
        'PostgreSQL: keep player tokens in memory, each use confirmed through LISTEN/NOTIFY so that a revoked token or a suspended player is refused by every instance at once; turn off behind a pooler in transaction mode (PgBouncer), where LISTEN does not work',
    }),
    storage_url: Type.String({
      default: '',
      description:
        'unset: avatars and game files under data_dir; s3://<bucket>/<prefix>: in an S3-compatible object store (needed to run several instances)',
    }),
    assets_url: Type.String({
      default: '',
      description:
        "optional public base (a CDN or the bucket's public address) where the stored objects are reachable by key: avatars at <assets_url>/avatars/…, game covers at <assets_url>/games/<slug>/…; unset: served by the service",
    }),
    s3_endpoint: Type.String({ default: '', description: "the object store's URL (MinIO, R2, Ceph…); unset: AWS S3" }),
    s3_region: Type.String({ default: 'us-east-1', description: "the bucket's region" }),
    s3_access_key_id: Type.String({
      default: '',
      description: "access key; unset: the AWS SDK's usual sources (environment, profile, instance role)",
    }),
    s3_secret_access_key: Type.String({ default: '', description: 'secret key, with s3_access_key_id' }),
    s3_force_path_style: Type.Boolean({
      default: false,
      description:
        'address the bucket as <endpoint>/<bucket> rather than <bucket>.<endpoint> (MinIO, most self-hosted stores)',
    }),
    smtp_url: Type.String({
      default: '',
      description: 'smtp:// or smtps:// URL; when unset, mail goes to the outbox table and the log',
    }),
    mail_from: Type.String({
      default: 'Game Platform <no-reply@localhost>',
      description: 'sender of the platform mail',
    }),
    redis_url: Type.String({ default: '', description: 'when set, rate-limit counters are shared through Redis' }),
    redis_prefix: Type.String({
      default: 'gameplatform:',
      description: 'prefix of every Redis key, so several deployments can share one Redis',
    }),
    tls_cert: Type.String({
      default: '',
      description: 'PEM certificate file; with tls_key the service serves HTTPS itself',
    }),
    tls_key: Type.String({ default: '', description: 'PEM private key file' }),
    trust_proxy: Type.String({
      default: '',
      description:
        'proxy to trust for X-Forwarded-Proto/-For: true, a hop count, or addresses/CIDRs separated by commas',
    }),
    secret: Type.String({
      default: 'dev-insecure-secret-change-me-in-production',
      description: 'signs the portal session cookie; production refuses the default and anything under 32 characters',
    }),
    port: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'listening port (also PORT)' }),
    host: Type.String({
      default: 'localhost',
      description: 'listening address (also HOST); 0.0.0.0 for every interface',
    }),
    log_level: Type.Union(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
      { default: 'info', description: 'log level' },
    ),
    metrics_token: Type.String({
      default: '',
      description:
        'when set, GET /metrics needs Authorization: Bearer <metrics_token>; unset, /metrics is open to anyone who can reach it',
    }),
    metrics_port: Type.Integer({
      minimum: 0,
      maximum: 65535,
      default: 0,
      description:
        'when set, GET /metrics (and the probes /healthz, /readyz) are served over plain HTTP on this port of metrics_host, for Prometheus to scrape each instance, and /metrics leaves the public port; 0: /metrics is on the public port',
    }),
    metrics_host: Type.String({
      default: '127.0.0.1',
      description:
        'the address the metrics listener (metrics_port) binds: an internal one (the loopback, a private network, the pod IP), never a public one',
    }),
    rate_limits: Type.Object(
      {
        login: RateLimit(10, 60, 'POST /auth/login, per IP and per login name'),
        register: RateLimit(5, 600, 'POST /auth/register, per IP'),
        forgot_password: RateLimit(5, 3600, 'POST /auth/forgot-password, per email'),
        default: RateLimit(600, 60, 'every other request, per credential or IP'),
        developer_key: RateLimit(6000, 60, "requests with a developer key (a whole game's backend), per key"),
      },
      { additionalProperties: false, default: {} },
    ),
    studios: Type.Object(
      {
        self_signup: Type.Boolean({
          default: false,
          description:
            'players may create a studio themselves (POST /v1/studio/studios); it waits for an operator to approve it before it can do anything',
        }),
        review: Type.Boolean({
          default: false,
          description:
            "a studio's move of a game to beta or published waits for an operator's review (GET /v1/admin/reviews) instead of taking effect at once",
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    builds: Type.Object(
      {
        max_files: Type.Integer({
          minimum: 1,
          maximum: 1_000_000,
          default: 5000,
          description: 'most files a build may hold (the entries of its zip, folders not counted)',
        }),
        max_bytes: Type.Integer({
          minimum: 1024,
          maximum: 1024 * 1024 * 1024 * 1024,
          default: 500 * 1024 * 1024,
          description: 'most bytes a build may hold unpacked (counted while it is inflated), and most bytes of its zip',
        }),
        max_ratio: Type.Integer({
          minimum: 2,
          maximum: 100_000,
          default: 200,
          description:
            'most a zip entry may grow when inflated, as unpacked bytes per packed byte, checked once it passes 1 MiB (a zip bomb is refused while it inflates)',
        }),
        keep: Type.Integer({
          minimum: 1,
          maximum: 1000,
          default: 10,
          description:
            'builds kept per game (the newest ones; the live build and the one before it always): older builds are pruned and their files deleted from the store',
        }),
        upload_ttl_hours: Type.Integer({
          minimum: 1,
          maximum: 720,
          default: 24,
          description: 'hours an unfinished upload may be resumed; then it and its parts are deleted',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    http: Type.Object(
      {
        request_timeout_seconds: Type.Integer({
          minimum: 1,
          maximum: 3600,
          default: 60,
          description:
            'most seconds a request may take to arrive in full, headers and body; a slower one is answered 408 and its connection closed',
        }),
        headers_timeout_seconds: Type.Integer({
          minimum: 1,
          maximum: 600,
          default: 10,
          description:
            'most seconds for the request headers to arrive, counted from the connection or the previous answer (at most request_timeout_seconds)',
        }),
        keep_alive_timeout_seconds: Type.Integer({
          minimum: 1,
          maximum: 3600,
          default: 10,
          description:
            "seconds an idle keep-alive connection stays open; behind a load balancer, more than the balancer's own idle timeout",
        }),
        max_connections: Type.Integer({
          minimum: 1,
          maximum: 1_000_000,
          default: 1024,
          description: 'open connections at most; one more is closed as soon as it opens',
        }),
        max_header_bytes: Type.Integer({
          minimum: 16_384,
          maximum: 16_777_216,
          default: 1_048_576,
          description:
            "most bytes of request headers; more is answered 431. The default takes the largest Cookie header a browser sends (180 cookies of 4 KB), so that a game's cookie bomb cannot lock players out",
        }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false },
);

export type Settings = Static<typeof SettingsSchema>;
export type Environment = 'production' | 'development' | 'test';

export type Config = Readonly<
  Settings & {
    env: Environment;
    /** true when `public_url` was not set and follows `port` and `host` (`defaultPublicUrl`). */
    public_url_default: boolean;
    /** `public_url` reduced to its origin, for the Origin check. */
    public_origin: string;
    /** `games_url` with the default applied (development and tests: `{slug}.games.gameplatform.localhost`, `{slug}.games.localhost`). */
    games_url: string;
    /** `database_url` with the default applied. */
    database_url: string;
    database_kind: 'sqlite' | 'postgres';
    /** OpenTelemetry tracing, from the standard OTEL_* variables (off unless an exporter or endpoint is named) */
    tracing: TracingSettings;
  }
>;

export const DEFAULT_SECRET = 'dev-insecure-secret-change-me-in-production';

export class ConfigError extends Error {}

/** One leaf of the settings tree: its dotted name, its environment variable and its schema. */
export interface SettingLeaf {
  name: string;
  envName: string;
  schema: TSchema;
}

export function settingLeaves(schema: TSchema = SettingsSchema, prefix = ''): SettingLeaf[] {
  const leaves: SettingLeaf[] = [];
  for (const [key, child] of Object.entries(schema.properties as Record<string, TSchema>)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (child[Kind] === 'Object') leaves.push(...settingLeaves(child, name));
    else leaves.push({ name, envName: `GP_${name.toUpperCase().replace(/\./g, '_')}`, schema: child });
  }
  return leaves;
}

/** Plain aliases that hosting platforms set by convention. */
const ENV_ALIASES: Record<string, string> = { port: 'PORT', host: 'HOST', database_url: 'DATABASE_URL' };

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

function envValue(leaf: SettingLeaf, raw: string): unknown {
  if (leaf.schema.type === 'boolean') {
    const value = raw.trim().toLowerCase();
    if (!['true', 'false', '1', '0'].includes(value))
      throw new ConfigError(`Setting ${leaf.name} (${leaf.envName}) must be true or false, got "${raw}"`);
    return value === 'true' || value === '1';
  }
  if (leaf.schema.type === 'integer') {
    if (!/^-?\d+$/.test(raw.trim()))
      throw new ConfigError(`Setting ${leaf.name} (${leaf.envName}) must be an integer, got "${raw}"`);
    return Number(raw.trim());
  }
  return raw;
}

function readConfigFile(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`${file} must hold a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

function firstError(value: unknown): string | undefined {
  const error = Value.Errors(SettingsSchema, value).First();
  if (!error) return undefined;
  const name = error.path.replace(/^\//, '').replace(/\//g, '.') || '(root)';
  const leaf = settingLeaves().find((l) => l.name === name);
  const where = leaf ? `${name} (${leaf.envName})` : name;
  // A choice of words (log_level): name them, rather than TypeBox's "Expected union value".
  const choices = (leaf?.schema.anyOf as TSchema[] | undefined)?.map((option) => option.const);
  const message = choices?.every((c) => typeof c === 'string') ? `must be one of ${choices.join(', ')}` : error.message;
  return `Setting ${where}: ${message}${error.value === undefined ? '' : `, got ${JSON.stringify(error.value)}`}`;
}

function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

function checkSemantics(s: Settings, env: Environment): void {
  if (!isValidTimeZone(s.reset_timezone)) {
    throw new ConfigError(`Setting reset_timezone (GP_RESET_TIMEZONE): "${s.reset_timezone}" is not an IANA time zone`);
  }
  let url: URL;
  try {
    url = new URL(s.public_url);
  } catch {
    throw new ConfigError(`Setting public_url (GP_PUBLIC_URL): "${s.public_url}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('Setting public_url (GP_PUBLIC_URL) must be an http:// or https:// URL');
  }
  if (Boolean(s.tls_cert) !== Boolean(s.tls_key)) {
    throw new ConfigError('Settings tls_cert and tls_key (GP_TLS_CERT, GP_TLS_KEY) must be set together');
  }
  if (s.smtp_url && !/^smtps?:\/\//.test(s.smtp_url)) {
    throw new ConfigError('Setting smtp_url (GP_SMTP_URL) must start with smtp:// or smtps://');
  }
  if (s.redis_url && !/^rediss?:\/\//.test(s.redis_url)) {
    throw new ConfigError('Setting redis_url (GP_REDIS_URL) must start with redis:// or rediss://');
  }
  if (s.upgrade_url && !/^https?:\/\/[^/\s]+\S*$/.test(s.upgrade_url)) {
    throw new ConfigError('Setting upgrade_url (GP_UPGRADE_URL) must be an http:// or https:// URL');
  }
  s.trust_proxy = checkTrustProxy(s.trust_proxy);
  if (s.storage_url && !/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(s.storage_url)) {
    throw new ConfigError('Setting storage_url (GP_STORAGE_URL) must be s3://<bucket> or s3://<bucket>/<prefix>');
  }
  s.assets_url = checkAssetsUrl(s.assets_url, env);
  if (s.s3_endpoint && !/^https?:\/\/[^/]/.test(s.s3_endpoint)) {
    throw new ConfigError('Setting s3_endpoint (GP_S3_ENDPOINT) must be an http:// or https:// URL');
  }
  if (Boolean(s.s3_access_key_id) !== Boolean(s.s3_secret_access_key)) {
    throw new ConfigError(
      'Settings s3_access_key_id and s3_secret_access_key (GP_S3_ACCESS_KEY_ID, GP_S3_SECRET_ACCESS_KEY) must be set together',
    );
  }
  if (s.max_heartbeat_gap < s.heartbeat_interval) {
    throw new ConfigError('Setting max_heartbeat_gap (GP_MAX_HEARTBEAT_GAP) must be at least heartbeat_interval');
  }
  if (s.metrics_port && s.metrics_port === s.port) {
    throw new ConfigError(
      'Setting metrics_port (GP_METRICS_PORT) must differ from port (PORT): the metrics listener is a port of its own',
    );
  }
  if (env === 'production') checkProduction(s, url);
  checkGamesUrl(s, url);
}

/** assets_url without its trailing slash: an http(s) base with no query or fragment; https in production. */
function checkAssetsUrl(raw: string, env: Environment): string {
  const value = raw.trim().replace(/\/+$/, '');
  if (value === '') return '';
  const name = 'Setting assets_url (GP_ASSETS_URL)';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name}: ${JSON.stringify(raw)} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError(`${name} must be an http:// or https:// URL`);
  if (url.search || url.hash || url.username || url.password)
    throw new ConfigError(`${name} must be a plain base URL, without query, fragment or credentials`);
  if (env === 'production' && url.protocol !== 'https:')
    throw new ConfigError(`${name} must be an https:// URL in production`);
  return value;
}

/**
 * trust_proxy as Fastify and proxy-addr take it: '' (false), 'true', a hop count, or addresses, CIDRs and the names
 * loopback, linklocal and uniquelocal separated by commas (compiled here, so a bad one stops the start with a message).
 */
function checkTrustProxy(raw: string): string {
  const value = raw.trim();
  if (value === '' || value === 'false') return '';
  if (value === 'true' || /^\d+$/.test(value)) return value;
  const refuse = (why: string) =>
    new ConfigError(
      `Setting trust_proxy (GP_TRUST_PROXY): ${why}; it takes true, false, a hop count, or IP addresses and CIDRs ` +
        `(or loopback, linklocal, uniquelocal) separated by commas, got ${JSON.stringify(raw)}`,
    );
  const list = value.split(',').map((part) => part.trim());
  if (list.some((part) => part === '')) throw refuse('an empty entry');
  try {
    proxyAddr.compile(list);
  } catch (error) {
    throw refuse((error as Error).message);
  }
  return list.join(',');
}

/** The games' origin: a real template in production, the `*.games.localhost` default elsewhere; never the portal's host. */
function checkGamesUrl(s: Settings, publicUrl: URL): void {
  const name = 'Setting games_url (GP_GAMES_URL)';
  const template = s.games_url || defaultGamesUrl(publicUrl);
  let games: ReturnType<typeof parseGamesUrl>;
  try {
    games = parseGamesUrl(template);
  } catch (error) {
    throw new ConfigError(`${name} ${(error as Error).message}`);
  }
  const clash = sharesPortalHost(games, publicUrl.hostname);
  if (clash) throw new ConfigError(`${name} ${clash}`);
  s.games_url = games.template;
}

function checkProduction(s: Settings, url: URL): void {
  if (s.secret === DEFAULT_SECRET || s.secret.length < 32) {
    throw new ConfigError(
      'Setting secret (GP_SECRET) must be set to a random value of at least 32 characters in production',
    );
  }
  if (url.protocol !== 'https:') {
    throw new ConfigError('Setting public_url (GP_PUBLIC_URL) must be an https:// URL in production');
  }
  if (!s.games_url) {
    throw new ConfigError(
      'Setting games_url (GP_GAMES_URL) must be set in production: game files are served from an origin of their own, e.g. https://{slug}.games.example.com with a wildcard DNS record and certificate (docs/api.md, "Game files on their own origin")',
    );
  }
  if (!s.games_url.trim().startsWith('https://'))
    throw new ConfigError('Setting games_url (GP_GAMES_URL) must be an https:// URL in production');
  if (!s.tls_cert && !s.trust_proxy) {
    throw new ConfigError(
      'In production set tls_cert and tls_key (GP_TLS_CERT, GP_TLS_KEY) or trust_proxy (GP_TRUST_PROXY): the API is served over HTTPS only',
    );
  }
}

/** Addresses that mean "this machine" to a browser on it: the loopback and every interface. */
const LOCAL_HOSTS = new Set(['', 'localhost', '127.0.0.1', '::1', '[::1]', '0.0.0.0', '::', '[::]']);

/**
 * public_url when unset: the portal at http://gameplatform.localhost on the listening port (a name that reaches this
 * machine without DNS, under which the games get origins of their own), or at the listening address when `host` is
 * one a browser on this machine would not reach through the loopback. Port 80 is left out, as browsers do.
 */
export function defaultPublicUrl(port: number, host: string): string {
  const suffix = port === 80 ? '' : `:${port}`;
  const name = host.trim().toLowerCase();
  if (LOCAL_HOSTS.has(name) || name.endsWith('.localhost')) return `http://gameplatform.localhost${suffix}`;
  return `http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}${suffix}`;
}

/**
 * The warning for a public_url whose port is not the one the service listens on, with no proxy trusted to sit between:
 * browsers would be sent to the other port (links, covers, game files) and the Origin check would refuse the portal
 * opened on this one. Null when they agree, or when trust_proxy says a proxy on public_url's port forwards here.
 */
export function publicUrlPortWarning(config: Config, listeningPort: number): string | null {
  if (config.trust_proxy) return null;
  const url = new URL(config.public_url);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (port === listeningPort) return null;
  return (
    `public_url ${config.public_url} names port ${port} but the service listens on port ${listeningPort} and ` +
    'trust_proxy is unset: links and covers point at port ' +
    `${port}, and the portal opened on port ${listeningPort} is refused by the Origin check (403 cross_origin_forbidden). ` +
    'Set public_url to the address players use, leave it unset to follow the port, or set trust_proxy when a proxy on ' +
    `port ${port} forwards here`
  );
}

/** database_pool_size 0: 10 connections, or two per CPU the process may use when that is more. */
export function hostPoolSize(cpus = availableParallelism()): number {
  return Math.max(10, 2 * cpus);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Settings applied over file and environment (tests). */
  overrides?: Record<string, unknown>;
}

/** Reads, checks and freezes the settings. Throws ConfigError naming the setting on a bad value. */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const file = env.GP_CONFIG ? path.resolve(cwd, env.GP_CONFIG) : path.join(cwd, 'gameplatform.config.json');
  if (env.GP_CONFIG && !existsSync(file)) throw new ConfigError(`GP_CONFIG names ${file}, which does not exist`);
  const raw: Record<string, unknown> = existsSync(file) ? readConfigFile(file) : {};

  for (const leaf of settingLeaves()) {
    const alias = ENV_ALIASES[leaf.name];
    const value = env[leaf.envName] ?? (alias ? env[alias] : undefined);
    if (value !== undefined && value !== '') setPath(raw, leaf.name, envValue(leaf, value));
  }
  for (const [name, value] of Object.entries(options.overrides ?? {})) setPath(raw, name, value);

  const settings = Value.Default(SettingsSchema, structuredClone(raw)) as Settings;
  const problem = firstError(settings);
  if (problem) throw new ConfigError(problem);

  const nodeEnv = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development';
  const publicUrlDefault = settings.public_url.trim() === '';
  if (publicUrlDefault) {
    if (nodeEnv === 'production')
      throw new ConfigError('Setting public_url (GP_PUBLIC_URL) must be set to an https:// URL in production');
    settings.public_url = defaultPublicUrl(settings.port, settings.host);
  }
  checkSemantics(settings, nodeEnv);
  const dataDir = path.resolve(cwd, settings.data_dir);
  const databaseUrl = settings.database_url || path.join(dataDir, 'gameplatform.sqlite');
  const isPostgres = /^postgres(ql)?:\/\//.test(databaseUrl);

  let tracing: TracingSettings;
  try {
    tracing = tracingSettings(env);
  } catch (error) {
    throw new ConfigError(`Tracing: ${(error as Error).message}`);
  }
  return deepFreeze({
    ...settings,
    tracing,
    database_pool_size: settings.database_pool_size || hostPoolSize(),
    data_dir: dataDir,
    env: nodeEnv,
    public_url: settings.public_url.replace(/\/+$/, ''),
    public_url_default: publicUrlDefault,
    public_origin: new URL(settings.public_url).origin,
    database_url: isPostgres ? databaseUrl : path.resolve(cwd, databaseUrl),
    database_kind: isPostgres ? 'postgres' : 'sqlite',
  });
}
