// Builds the frozen Config both processes run on: environment over config/settings.yaml over the
// declared defaults. Bad values throw one ConfigError listing every problem, each naming its
// variable; main() prints one line per problem on stderr and exits 1, so nothing half-starts.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { ConfigError, RETIRED_SETTINGS, SETTINGS, type RawSettings, type SettingKey } from './settings';
import { resolveCrawlProfile, type CrawlProfile } from './crawl-profile';

export { ConfigError } from './settings';

export interface Config extends RawSettings {
  /** Profile values after single-value overrides. */
  readonly crawl: CrawlProfile;
  /** Working directory every relative path is resolved against. */
  readonly rootDir: string;
  /** Where the settings file was read from, if one existed. */
  readonly settingsFile: string | null;
  /** Retired settings that are still set (environment or file): the processes warn about them. */
  readonly retiredSet: readonly string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/** The settings file's values; what is wrong with it goes to `problems`, one line each. */
function readSettingsFile(file: string, problems: string[]): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = yaml.load(readFileSync(file, 'utf8'));
  } catch (err) {
    problems.push(`CONFIG_FILE ${file}: not valid YAML (${(err as Error).message.split('\n')[0]})`);
    return {};
  }
  if (doc === undefined || doc === null) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    problems.push(`CONFIG_FILE ${file}: must be a map of VARIABLE: value`);
    return {};
  }
  const known = new Set(Object.values(SETTINGS).filter((s) => !s.envOnly).map((s) => s.name));
  for (const k of Object.keys(doc)) {
    if (k === SETTINGS.configFile.name) problems.push(`CONFIG_FILE ${file}: CONFIG_FILE can only be set in the environment`);
    else if (!known.has(k) && !(k in RETIRED_SETTINGS)) problems.push(`CONFIG_FILE ${file}: unknown setting "${k}"`);
  }
  return doc as Record<string, unknown>;
}

/**
 * Every problem is collected before anything is thrown, so an operator fixes them all in one go:
 * the ConfigError carries one line per bad variable (outline's config habit).
 */
export function loadConfig(env: Env = process.env, rootDir: string = process.cwd()): Config {
  const problems: string[] = [];
  const explicit = env[SETTINGS.configFile.name];
  const configFile = explicit ?? SETTINGS.configFile.default ?? '';
  const candidate = path.resolve(rootDir, configFile);
  const found = existsSync(candidate);
  if (explicit !== undefined && !found) problems.push(`CONFIG_FILE: file ${explicit} does not exist`);
  const fromFile = found ? readSettingsFile(candidate, problems) : {};

  const out: Record<string, unknown> = {};
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const s = SETTINGS[key];
    const fileValue = s.envOnly ? undefined : fromFile[s.name];
    const fromEnv = s.secret ? secretFromEnv(env, s.name, rootDir, problems) : env[s.name];
    const raw = fromEnv ?? (fileValue === undefined || fileValue === null ? undefined : String(fileValue)) ?? s.default ?? '';
    try {
      out[key] = s.parse(raw);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(...err.problems.map((p) => `${s.name}: ${p}`));
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const raw = out as unknown as RawSettings;
  const config: Config = {
    ...raw,
    crawl: resolveCrawlProfile(raw),
    rootDir,
    settingsFile: found ? candidate : null,
    retiredSet: Object.keys(RETIRED_SETTINGS).filter((name) => env[name] !== undefined || fromFile[name] !== undefined),
  };
  return deepFreeze(config);
}

/**
 * A secret from the environment: `NAME`, or `NAME_FILE` naming a file that holds it (the convention
 * of the official database images), so that a container's secrets need not stand in its
 * environment, where `inspect` shows them. One trailing newline is dropped, as editors add one.
 */
function secretFromEnv(env: Env, name: string, rootDir: string, problems: string[]): string | undefined {
  const file = env[`${name}_FILE`];
  if (file === undefined || file === '') return env[name];
  if (env[name] !== undefined) {
    problems.push(`${name}_FILE: ${name} is set too; set one of them`);
    return undefined;
  }
  try {
    return readFileSync(path.resolve(rootDir, file), 'utf8').replace(/\r?\n$/, '');
  } catch (err) {
    problems.push(`${name}_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    return undefined;
  }
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

/** The effective configuration for the start-up log line: secrets masked, and credentials in any URL. */
export function describeConfig(config: Config): Record<string, unknown> {
  const out = describeSettings(config);
  out.crawl = config.crawl;
  return out;
}

/** The declared defaults as describeConfig shows them: what a setting is when nothing sets it. */
export function describeDefaults(): Record<string, unknown> {
  const values: Partial<Record<SettingKey, unknown>> = {};
  for (const key of Object.keys(SETTINGS) as SettingKey[]) values[key] = SETTINGS[key].parse(SETTINGS[key].default ?? '');
  return describeSettings(values);
}

function describeSettings(values: Partial<Record<SettingKey, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const s = SETTINGS[key];
    const show = (v: unknown): unknown => (typeof v !== 'string' ? v : s.secret ? maskSecret(v) : maskUrlCredentials(v));
    const v = values[key];
    out[s.name] = Array.isArray(v) ? v.map(show) : show(v);
  }
  return out;
}

/** Keeps the scheme and host of a URL (useful to operators), hides credentials and the rest. */
export function maskSecret(value: string): string {
  if (value.startsWith('sqlite:')) return value;
  const m = /^([a-z][a-z0-9+.-]*:)(\/\/)?([^/?#]*)/i.exec(value);
  return m ? `${m[1]}${m[2] ?? ''}${hideUserInfo(m[3] ?? '')}/***` : '***';
}

/**
 * An authority without its user:password. Up to the LAST `@`: a password may hold an `@` of its
 * own, and cutting at the first one would print the rest of it.
 */
const hideUserInfo = (authority: string): string => authority.replace(/^.*@/, '***@');

/**
 * Any URL-shaped value (a base URL, a proxy, each entry of a list) loses its user:password and its
 * query (where tokens travel); scheme, host, port and path stay, which is what an operator checks.
 * Generic on purpose: a URL setting added later is masked without anyone remembering to.
 */
export function maskUrlCredentials(value: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)([?#].*)?$/i.exec(value);
  if (!m) return value;
  return `${m[1]}${hideUserInfo(m[2] ?? '')}${m[3] ?? ''}${m[4] ? '?***' : ''}`;
}
