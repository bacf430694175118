// Builds the frozen Config both processes run on: environment over config/settings.yaml over the
// declared defaults. A bad value throws ConfigError naming the variable; main() turns that into one
// line on stderr and exit code 1, so nothing half-starts.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { ConfigError, SETTINGS, type RawSettings, type SettingKey } from './settings';
import { resolveCrawlProfile, type CrawlProfile } from './crawl-profile';

export { ConfigError } from './settings';

export interface Config extends RawSettings {
  /** Profile values after single-value overrides. */
  readonly crawl: CrawlProfile;
  /** Working directory every relative path is resolved against. */
  readonly rootDir: string;
  /** Where the settings file was read from, if one existed. */
  readonly settingsFile: string | null;
}

type Env = Readonly<Record<string, string | undefined>>;

function readSettingsFile(file: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = yaml.load(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`CONFIG_FILE ${file}: not valid YAML (${(err as Error).message.split('\n')[0]})`);
  }
  if (doc === undefined || doc === null) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new ConfigError(`CONFIG_FILE ${file}: must be a map of VARIABLE: value`);
  const known = new Set(Object.values(SETTINGS).map((s) => s.name));
  for (const k of Object.keys(doc)) {
    if (!known.has(k)) throw new ConfigError(`CONFIG_FILE ${file}: unknown setting "${k}"`);
  }
  return doc as Record<string, unknown>;
}

export function loadConfig(env: Env = process.env, rootDir: string = process.cwd()): Config {
  const explicit = env.CONFIG_FILE;
  const candidate = path.resolve(rootDir, explicit ?? 'config/settings.yaml');
  if (explicit && !existsSync(candidate)) throw new ConfigError(`CONFIG_FILE: file ${explicit} does not exist`);
  const fromFile = existsSync(candidate) ? readSettingsFile(candidate) : {};

  const out: Record<string, unknown> = {};
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const s = SETTINGS[key];
    const fileValue = fromFile[s.name];
    const raw = env[s.name] ?? (fileValue === undefined || fileValue === null ? undefined : String(fileValue)) ?? s.default ?? '';
    try {
      out[key] = s.parse(raw);
    } catch (err) {
      if (err instanceof ConfigError) throw new ConfigError(`${s.name}: ${err.message}`);
      throw err;
    }
  }
  const raw = out as unknown as RawSettings;
  const config: Config = {
    ...raw,
    crawl: resolveCrawlProfile(raw),
    rootDir,
    settingsFile: existsSync(candidate) ? candidate : null,
  };
  return deepFreeze(config);
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

/** The effective configuration for the start-up log line, secrets masked. */
export function describeConfig(config: Config): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const s = SETTINGS[key];
    const v = config[key];
    out[s.name] = s.secret && v !== null ? maskSecret(String(v)) : v;
  }
  out.crawl = config.crawl;
  return out;
}

/** Keeps the scheme and host of a URL (useful to operators), hides credentials and the rest. */
export function maskSecret(value: string): string {
  const m = /^([a-z+]+:)(\/\/)?([^/?#]*)/i.exec(value);
  if (!m) return '***';
  const hostPart = (m[3] ?? '').replace(/^[^@]*@/, '***@');
  return value.startsWith('sqlite:') ? value : `${m[1]}${m[2] ?? ''}${hostPart}/***`;
}
