// API keys from config/security.yaml (spec: security > api_keys > KEY → {name, rate_limit, enabled}).
// Parsing is strict and every message names a key by its label (or position), never by the key
// itself, because messages end up in logs. After parsing only digests of the keys are kept.
// KeyRing watches the file and swaps in a new key set on every good edit; a broken edit keeps the
// last good set and logs an ERROR, so a typo never locks every client out.

import { createHash, hash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readFileSync, watch, watchFile, unwatchFile, type FSWatcher } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { ConfigError } from './settings';
import { categoryLogger, type Logger } from '../logger';

export interface ApiKey {
  /** The operator's label; safe to log. */
  readonly name: string;
  /** Requests per minute. */
  readonly rateLimit: number;
  readonly enabled: boolean;
  /** SHA-256 of the key: what requests are compared against, in constant time. */
  readonly digest: Buffer;
  /** Opaque, stable id for the shared rate-limit counter; not reversible to the key. */
  readonly id: string;
}

export interface SecurityOptions {
  /** rate_limit of a record that omits it (DEFAULT_RATE_LIMIT). */
  readonly defaultRateLimit: number;
}

/** What is wrong with the file's content; the message never contains a key. */
export class SecurityConfigError extends Error {
  override readonly name = 'SecurityConfigError';
}

const RECORD_FIELDS = new Set(['name', 'rate_limit', 'enabled']);
/** Printable ASCII without spaces: survives an HTTP header and a query string. */
const KEY_FORM = /^[\x21-\x7E]{8,256}$/;

/** One-shot crypto.hash: no Hash object per call, which matters on every keyed request. */
export function sha256(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}

/** Counter id for the store: a digest in its own domain, so it never equals the lookup digest. */
export function rateLimitId(key: string): string {
  return createHash('sha256').update('transcript-feed/rate-limit\n').update(key, 'utf8').digest('hex').slice(0, 32);
}

/**
 * A misplaced key looks like an unknown field, so the field's own name is never echoed: the message
 * names the allowed fields and, for a near-miss typo, the one that was probably meant.
 */
function unknownField(field: string, allowed: Iterable<string>): string {
  const names = [...allowed];
  const near = names.find((n) => editDistance(field.toLowerCase(), n) <= 2);
  return `unknown field${near ? ` (did you mean "${near}"?)` : ''}; allowed: ${names.join(', ')}`;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (message: string): never => {
  throw new SecurityConfigError(message);
};

function parseYaml(text: string): unknown {
  try {
    return yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch (err) {
    // The exception's message quotes the offending line, which may be a key: keep reason + position only.
    const e = err as yaml.YAMLException;
    const where = e.mark ? ` at line ${e.mark.line + 1}, column ${e.mark.column + 1}` : '';
    return fail(`not valid YAML: ${e.reason ?? 'syntax error'}${where}`);
  }
}

function parseRecord(key: string, record: unknown, position: number, opts: SecurityOptions): ApiKey {
  const hasName = isMap(record) && typeof record.name === 'string' && record.name.trim() !== '';
  const label = hasName ? `key "${(record as { name: string }).name}"` : `key #${position}`;
  if (!isMap(record)) return fail(`${label}: must be a map with name, rate_limit and enabled`);
  for (const field of Object.keys(record)) {
    if (!RECORD_FIELDS.has(field)) fail(`${label}: ${unknownField(field, RECORD_FIELDS)}`);
  }
  if (!hasName) fail(`${label}: name must be a non-empty string`);
  if (!KEY_FORM.test(key)) fail(`${label}: the key must be 8 to 256 printable ASCII characters without spaces`);

  const rate = record.rate_limit ?? opts.defaultRateLimit;
  if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 1) {
    fail(`${label}: rate_limit must be a positive whole number (requests per minute), got ${JSON.stringify(rate)}`);
  }
  if (typeof record.enabled !== 'boolean') {
    fail(`${label}: enabled must be true or false${record.enabled === undefined ? ' (it is missing)' : ''}`);
  }
  return {
    name: (record.name as string).trim(),
    rateLimit: rate as number,
    enabled: record.enabled as boolean,
    digest: sha256(key),
    id: rateLimitId(key),
  };
}

/** Parse and validate the file's text. Throws SecurityConfigError naming the record at fault. */
export function parseSecurityConfig(text: string, opts: SecurityOptions): ApiKey[] {
  const doc = parseYaml(text);
  if (!isMap(doc)) return fail('must be a map with a "security" section');
  for (const k of Object.keys(doc)) if (k !== 'security') fail(`top level: ${unknownField(k, ['security'])}`);
  const security = doc.security;
  if (!isMap(security)) return fail('"security" must be a map with an "api_keys" section');
  for (const k of Object.keys(security)) if (k !== 'api_keys') fail(`"security": ${unknownField(k, ['api_keys'])}`);
  // `api_keys:` with nothing under it is an operator switching every key off: allowed, logged by the ring.
  const keys = security.api_keys ?? {};
  if (!isMap(keys)) return fail('"security.api_keys" must be a map from API key to {name, rate_limit, enabled}');
  return Object.entries(keys).map(([key, record], i) => parseRecord(key, record, i + 1, opts));
}

/** Read and parse the file; any problem becomes a ConfigError naming SECURITY_CONFIG (start-up). */
export function loadSecurityConfig(file: string, opts: SecurityOptions): ApiKey[] {
  try {
    return parseSecurityConfig(readText(file), opts);
  } catch (err) {
    throw new ConfigError(`SECURITY_CONFIG ${file}: ${(err as Error).message}`);
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return fail(code === 'ENOENT' ? 'file does not exist' : `cannot be read (${code ?? 'error'})`);
  }
}

export interface KeyRingOptions extends SecurityOptions {
  /** Root logger; the ring logs under category `api.auth`. */
  readonly logger: Logger;
  /** Quiet time after the last change event before reading; editors write in several steps. */
  readonly debounceMs?: number;
  /** Stat polling interval, the fallback for file systems where fs.watch sees nothing. */
  readonly pollMs?: number;
}

/**
 * The live key set. Events: `reload` (keys) after a good edit, `reload-failed` (error) after a bad
 * one. Watches the directory, not the file, so editors that replace the file are followed.
 */
export class KeyRing extends EventEmitter {
  private current: readonly ApiKey[];
  private lastText: string;
  private timer: NodeJS.Timeout | null = null;
  private watcher: FSWatcher | null = null;
  private closed = false;
  private readonly log: Logger;

  private constructor(readonly file: string, private readonly opts: KeyRingOptions, text: string, keys: ApiKey[]) {
    super();
    this.current = keys;
    this.lastText = text;
    this.log = categoryLogger(opts.logger, 'api.auth');
  }

  /** Load the file (ConfigError naming SECURITY_CONFIG when it is broken) and start watching it. */
  static open(file: string, opts: KeyRingOptions): KeyRing {
    let text: string;
    let keys: ApiKey[];
    try {
      text = readText(file);
      keys = parseSecurityConfig(text, opts);
    } catch (err) {
      throw new ConfigError(`SECURITY_CONFIG ${file}: ${(err as Error).message}`);
    }
    const ring = new KeyRing(file, opts, text, keys);
    ring.describe('API keys loaded');
    ring.watch();
    return ring;
  }

  /** Every configured key, enabled or not (lookups must touch all of them to stay constant-time). */
  get keys(): readonly ApiKey[] {
    return this.current;
  }

  /** Re-read the file now. True when a new key set was applied. */
  reload(): boolean {
    if (this.closed) return false;
    let text: string;
    try {
      text = readText(this.file);
      if (text === this.lastText) return false;
      const keys = parseSecurityConfig(text, this.opts);
      this.current = keys;
      this.lastText = text;
    } catch (err) {
      this.log.error({ file: this.file, err: (err as Error).message }, `API key file rejected, keeping the previous keys: ${(err as Error).message}`);
      this.emit('reload-failed', err);
      return false;
    }
    this.describe('API keys reloaded');
    this.emit('reload', this.current);
    return true;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.watcher?.close();
    unwatchFile(this.file, this.schedule);
  }

  private describe(message: string): void {
    const enabled = this.current.filter((k) => k.enabled).length;
    const fields = { file: this.file, keys: this.current.length, enabled, names: this.current.map((k) => k.name) };
    if (enabled === 0) this.log.warning(fields, `${message}: no enabled key, every keyed request gets 401`);
    else this.log.info(fields, message);
  }

  private schedule = (): void => {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.reload();
    }, this.opts.debounceMs ?? 100);
    this.timer.unref();
  };

  private watch(): void {
    const dir = path.dirname(this.file);
    const base = path.basename(this.file);
    try {
      this.watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (name === null || name === base) this.schedule();
      });
      this.watcher.on('error', (err) => this.log.warning({ err: err.message }, 'watching the API key directory failed; polling continues'));
    } catch (err) {
      this.log.warning({ err: (err as Error).message }, 'cannot watch the API key directory; polling only');
    }
    watchFile(this.file, { persistent: false, interval: this.opts.pollMs ?? 2000 }, this.schedule);
  }
}
