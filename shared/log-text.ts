// The readable form of the JSON log lines, for a person: what `npm start` prints on a terminal,
// what a process started by hand on a terminal prints, and what `npm run logs:text` makes of a log
// file, all through this one formatter. A line is `[time] LEVEL: process [category] message` with
// its other fields indented below it (pino-pretty); the start-up configuration line shows the
// settings as a short block of `NAME = value` lines instead of one object several KB long: the
// settings that differ from their defaults and the few that say where the service is, secrets
// already masked by the process that logged them (shared/config/load.ts describeConfig).

import { prettyFactory } from 'pino-pretty';
import { describeDefaults } from './config/load';

/** pino-pretty's options for the readable form; the spec's level names and a category on each line. */
export const LOG_TEXT_OPTIONS = {
  customLevels: 'debug:20,info:30,warning:40,error:50',
  translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
  ignore: 'pid,hostname,process,category',
  messageFormat: '{process} [{category}] {msg}',
} as const;

/** Always in the configuration block: where the service listens, stores, reads keys and asks. */
const ALWAYS_SHOWN = ['PORT', 'HOST', 'DATABASE_URL', 'SECURITY_CONFIG', 'PLATFORM_BASE_URL', 'CRAWL_PROFILE', 'LOG_LEVEL'];
/**
 * Left out of the block: PM2 sets LOG_FORMAT=json for its log files, which says nothing about what
 * this terminal shows.
 */
const NEVER_SHOWN = new Set(['LOG_FORMAT']);
/** How the block's lines are indented: as pino-pretty indents a line's fields. */
const INDENT = '    ';

/** One setting's value on one line: lists joined, objects as compact JSON, null as "(none)". */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '(none)';
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

let defaults: Record<string, string> | null = null;
function defaultsShown(): Record<string, string> {
  defaults ??= Object.fromEntries(Object.entries(describeDefaults()).map(([k, v]) => [k, shown(v)]));
  return defaults;
}

/**
 * The start-up configuration (describeConfig's object) as `NAME = value` lines: every setting in
 * ALWAYS_SHOWN and every other one whose value is not its default, in the declared order.
 */
export function configBlock(config: Readonly<Record<string, unknown>>): string[] {
  const fallback = defaultsShown();
  const lines: string[] = [];
  let atDefault = 0;
  for (const [name, value] of Object.entries(config)) {
    if (!(name in fallback) || NEVER_SHOWN.has(name)) continue;
    const text = shown(value);
    if (ALWAYS_SHOWN.includes(name) || text !== fallback[name]) lines.push(`${INDENT}${name} = ${text}`);
    else atDefault += 1;
  }
  if (atDefault > 0) lines.push(`${INDENT}(${atDefault} more settings at their defaults; LOG_FORMAT=json prints them all)`);
  return lines;
}

const isConfigLine = (o: Record<string, unknown>): o is Record<string, unknown> & { config: Record<string, unknown> } =>
  typeof o.config === 'object' && o.config !== null && typeof o.msg === 'string' && o.msg.endsWith('starting with this configuration');

/** A formatter of JSON log lines (with or without their newline) into the readable form; other text as it is. */
export function logTextFormatter(opts: { colorize: boolean }): (line: string) => string {
  const pretty = prettyFactory({ ...LOG_TEXT_OPTIONS, colorize: opts.colorize });
  return (line) => {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) return line.endsWith('\n') || line === '' ? line : `${line}\n`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      return `${trimmed}\n`;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return `${trimmed}\n`;
    const o = parsed as Record<string, unknown>;
    if (!isConfigLine(o)) return pretty(o);
    const { config, ...rest } = o;
    return `${pretty(rest)}${configBlock(config).join('\n')}\n`;
  };
}
