// The live API key set: reads config/security.yaml (through the pure parser in
// shared/config/security.ts), watches it, and swaps in a new key set on every good edit. A broken
// edit keeps the last good set and logs an ERROR, so a typo never locks every client out. The file
// is capped in size: parsing happens on the event loop, and an accidental multi-megabyte file must
// not stall requests while it is read.

import { EventEmitter } from 'node:events';
import { closeSync, fstatSync, openSync, readSync, watch, watchFile, unwatchFile, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { parseSecurityConfig, SecurityConfigError, type ApiKey, type SecurityOptions } from '../shared/config/security';
import { ConfigError } from '../shared/config/settings';
import { fileErrorText } from '../shared/error-text';
import { categoryLogger, type Logger } from '../shared/logger';

/** Largest key file read: about 10,000 keys with their records. */
export const MAX_KEY_FILE_BYTES = 1024 * 1024;

export interface KeyRingOptions extends SecurityOptions {
  /** Root logger; the ring logs under category `api.auth`. */
  readonly logger: Logger;
  /** Quiet time after the last change event before reading; editors write in several steps. */
  readonly debounceMs?: number;
  /** Stat polling interval, the fallback for file systems where fs.watch sees nothing. */
  readonly pollMs?: number;
  /** Size cap of the file (default MAX_KEY_FILE_BYTES). */
  readonly maxBytes?: number;
}

/** The file's text, refused (SecurityConfigError) when missing, unreadable or over `maxBytes`. */
export function readKeyFile(file: string, maxBytes: number = MAX_KEY_FILE_BYTES): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new SecurityConfigError(code === 'ENOENT' ? 'file does not exist' : `cannot be read (${fileErrorText(err, 'read it')})`);
  }
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) throw new SecurityConfigError(`file is ${size} bytes, more than the ${maxBytes} bytes an API key file may have`);
    // Read at most one byte past the cap, in case the file grows between stat and read.
    const buf = Buffer.alloc(Math.min(size, maxBytes) + 1);
    let got = 0;
    for (let n: number; got < buf.length && (n = readSync(fd, buf, got, buf.length - got, null)) > 0; ) got += n;
    if (got > maxBytes) throw new SecurityConfigError(`file is more than the ${maxBytes} bytes an API key file may have`);
    return buf.subarray(0, got).toString('utf8');
  } catch (err) {
    if (err instanceof SecurityConfigError) throw err;
    throw new SecurityConfigError(`cannot be read (${fileErrorText(err, 'read it')})`);
  } finally {
    closeSync(fd);
  }
}

/**
 * Events: `reload` (keys) after a good edit, `reload-failed` (error) after a bad one. Watches the
 * directory, not the file, so editors that replace the file are followed.
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
      text = readKeyFile(file, opts.maxBytes);
      keys = parseSecurityConfig(text, opts);
    } catch (err) {
      throw new ConfigError(`SECURITY_CONFIG ${file}: ${(err as Error).message}`);
    }
    const ring = new KeyRing(file, opts, text, keys);
    ring.describe('API keys loaded');
    ring.watch();
    return ring;
  }

  /** Every configured key, enabled or not. */
  get keys(): readonly ApiKey[] {
    return this.current;
  }

  /** Re-read the file now. True when a new key set was applied. */
  reload(): boolean {
    if (this.closed) return false;
    let text: string;
    try {
      text = readKeyFile(this.file, this.opts.maxBytes);
      if (text === this.lastText) return false;
      const keys = parseSecurityConfig(text, this.opts);
      this.current = keys;
      this.lastText = text;
    } catch (err) {
      // An operator's file refused, not a bug: the reason alone (bounded), no stack.
      this.log.error({ file: this.file, reason: (err as Error).message }, `API key file rejected, keeping the previous keys: ${(err as Error).message}`);
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
    // Names are listed only while short enough to read; a large file is summarised by its counts.
    const admins = this.current.filter((k) => k.enabled && k.role === 'admin').length;
    const fields = { file: this.file, keys: this.current.length, enabled, admins, ...(this.current.length <= 50 ? { names: this.current.map((k) => (k.name.length > 80 ? `${k.name.slice(0, 79)}…` : k.name)) } : {}) };
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
      this.watcher.on('error', (err) => this.log.warning({ err }, 'watching the API key directory failed; polling continues'));
    } catch (err) {
      this.log.warning({ err }, 'cannot watch the API key directory; polling only');
    }
    watchFile(this.file, { persistent: false, interval: this.opts.pollMs ?? 2000 }, this.schedule);
  }
}
