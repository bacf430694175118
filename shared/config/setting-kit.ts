// What a setting is, and the parsers and error every settings file shares (settings.ts and the
// feature files it spreads in, such as summary-settings.ts).

/** One or more problems with the configuration, each a line naming its variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: readonly string[];
  constructor(problems: string | readonly string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.join('\n'));
    this.problems = list;
  }
}

export interface Setting<T> {
  /** Environment variable (and key in config/settings.yaml). */
  readonly name: string;
  readonly default: string | undefined;
  readonly secret: boolean;
  readonly help: string;
  /** Read from the environment only (CONFIG_FILE: it says where the file is). */
  readonly envOnly?: boolean;
  /** Parse a raw string; throw ConfigError with what is wrong (the caller adds the name). */
  readonly parse: (raw: string) => T;
}

export function setting<T>(s: Setting<T>): Setting<T> {
  return s;
}

export const fail = (message: string): never => {
  throw new ConfigError(message);
};

export function parseInteger(min: number, max: number) {
  return (raw: string): number => {
    if (!/^-?\d+$/.test(raw.trim())) fail(`must be a whole number, got "${raw}"`);
    const n = Number(raw.trim());
    if (n < min || n > max) fail(`must be between ${min} and ${max}, got ${n}`);
    return n;
  };
}

