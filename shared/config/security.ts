// The API key file's text → validated keys (spec: security > api_keys > KEY → {name, rate_limit,
// enabled}, plus an optional `role`: `reader`, the default, or `admin` for the operator's
// endpoints). Pure: no file, no clock, no logger; the API's KeyRing (api/key-ring.ts) reads and
// watches the file. Parsing is strict and every message names a key by its label (or position),
// never by the key itself, because messages end up in logs: the YAML parser's own text can quote a
// line of the file, so only a reason from a fixed list and the line/column are ever passed on.
// After parsing the keys are kept as digests on the ApiKey records; the key's text stays only in a
// module-private WeakMap (keyTextOf), never on a record, so logging or serialising a record never
// shows it. The web app needs it to write a signed-in reader's own feed URLs.

import { createHash, hash } from 'node:crypto';
import yaml from 'js-yaml';
import { fingerprintOf, type KeyFingerprint } from './key-fingerprint';

export interface ApiKey {
  /** The operator's label; safe to log. */
  readonly name: string;
  /** Requests per minute. */
  readonly rateLimit: number;
  readonly enabled: boolean;
  /** `admin` keys may also call /admin/…, /status and /metrics; `reader` (the default) may not. */
  readonly role: KeyRole;
  /** SHA-256 of the key: what requests are compared against, in constant time. */
  readonly digest: Buffer;
  /** The same digest in hex: how the store names the key (subscriptions and the like), never the key. */
  readonly keyId: string;
  /** Opaque, stable id for the shared rate-limit counter; not reversible to the key. */
  readonly id: string;
  /** Length and short hash of the key, for redacting it from logged URLs (absent on keys made by hand). */
  readonly fingerprint?: KeyFingerprint;
}

export type KeyRole = 'reader' | 'admin';
export const KEY_ROLES: readonly KeyRole[] = ['reader', 'admin'];

export interface SecurityOptions {
  /** rate_limit of a record that omits it (DEFAULT_RATE_LIMIT). */
  readonly defaultRateLimit: number;
}

/** Longest message about the file: it goes into one log line, whatever the file holds. */
export const MAX_MESSAGE_CHARS = 300;

/** What is wrong with the file's content; the message never contains a key, and is bounded in length. */
export class SecurityConfigError extends Error {
  override readonly name = 'SecurityConfigError';
  constructor(message: string) {
    super(message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…` : message);
  }
}

/**
 * YAML nodes read at most: about 10,000 keys with their records (each key is some 8 nodes), the
 * size the file cap allows. Counted as the parser goes, so a file of tiny nodes stops early.
 */
export const MAX_YAML_NODES = 150_000;

const RECORD_FIELDS = new Set(['name', 'rate_limit', 'enabled', 'role']);
/** What a message about a missing field adds: the sample file and the README say the same. */
const REQUIRED_FIELDS = 'every key needs name and enabled: true or false; rate_limit and role may be left out';
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

/** A short description of a wrong value: scalars as written (cut), collections by kind only. */
function describeValue(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v)?.slice(0, 40) ?? String(v);
  return Array.isArray(v) ? 'a list' : 'a map';
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (message: string): never => {
  throw new SecurityConfigError(message);
};

/**
 * Reasons js-yaml states without quoting the document. Any other reason may interpolate text of the
 * file (an unknown tag or alias is quoted whole, and an unquoted key starting with `!` or `*` is
 * one), so it is reported as a bare "syntax error" at its line and column.
 */
const SAFE_YAML_REASONS = new Set([
  'duplicated mapping key',
  'bad indentation of a mapping entry',
  'bad indentation of a sequence entry',
  'end of the stream or a document separator is expected',
  'unexpected end of the stream within a flow collection',
  'unexpected end of the stream within a single quoted scalar',
  'unexpected end of the stream within a double quoted scalar',
  'missed comma between flow collection entries',
  'can not read a block mapping entry; a multiline key may not be an implicit key',
  'incomplete explicit mapping pair; a key node is missed; or followed by a non-tabulated empty line',
]);

/** A node as js-yaml's listener reports it: enough to see which mapping keys were not strings. */
interface YamlNode {
  kind: string | null;
  result: unknown;
  line: number;
  children: YamlNode[];
}

/** The parser state the listener sees beyond the typed fields: the anchors defined so far. */
type ListenedState = { anchorMap?: Record<string, unknown> };

/**
 * Anchors and aliases are refused while parsing, before any alias is read: `&a [*b, *b, …]` nested
 * a few levels is a few hundred bytes that stand for millions of nodes the moment anything walks or
 * prints the result (one error message built from such a `rate_limit` once made a 676 MB log line).
 * The parser stores an anchor before the first node that could refer to it opens, so checking the
 * anchor table at every node event catches every alias. A key file has no use for either.
 */
function parseYaml(text: string): { doc: unknown; root: YamlNode | null } {
  const stack: YamlNode[][] = [[]];
  let nodes = 0;
  try {
    const doc = yaml.load(text, {
      schema: yaml.CORE_SCHEMA,
      listener(event, state) {
        const anchors = (state as unknown as ListenedState).anchorMap;
        if (anchors !== undefined && Object.keys(anchors).length > 0) {
          fail(`anchors and aliases (&name, *name) are not allowed in an API key file (line ${state.line + 1})`);
        }
        if (event === 'open') {
          if (++nodes > MAX_YAML_NODES) fail(`more than ${MAX_YAML_NODES} YAML nodes (line ${state.line + 1}); an API key file is a plain map of keys`);
          stack.push([]);
        } else stack.at(-2)?.push({ kind: state.kind, result: state.result, line: state.line, children: stack.pop()! });
      },
    });
    return { doc, root: stack[0]?.[0] ?? null };
  } catch (err) {
    if (err instanceof SecurityConfigError) throw err;
    const e = err as yaml.YAMLException;
    const reason = e.reason !== undefined && SAFE_YAML_REASONS.has(e.reason) ? e.reason : 'syntax error';
    const where = e.mark ? ` at line ${e.mark.line + 1}, column ${e.mark.column + 1}` : '';
    return fail(`not valid YAML: ${reason}${where}`);
  }
}

/** The value node under `name` in a mapping node, if any. */
function child(node: YamlNode | undefined, name: string): YamlNode | undefined {
  if (node?.kind !== 'mapping') return undefined;
  for (let i = 0; i + 1 < node.children.length; i += 2) if (node.children[i]!.result === name) return node.children[i + 1];
  return undefined;
}

/**
 * Keys the YAML read as something other than a string (a number, a boolean, null): the parser
 * turns them into different text (`0x…deadbeef` becomes `3735928559`, a 20-digit key loses
 * digits), so the key a client sends would silently stop matching. Refused, naming the record.
 */
function refuseNonStringKeys(root: YamlNode | null): void {
  const keys = child(child(root ?? undefined, 'security'), 'api_keys');
  if (keys?.kind !== 'mapping') return;
  for (let i = 0; i + 1 < keys.children.length; i += 2) {
    const keyNode = keys.children[i]!;
    if (typeof keyNode.result === 'string') continue;
    const name = child(keys.children[i + 1], 'name')?.result;
    const label = typeof name === 'string' && name.trim() !== '' ? `key "${name.trim()}"` : `key #${i / 2 + 1}`;
    fail(`${label} (line ${keyNode.line + 1}): the key is read as a ${keyNode.result === null ? 'null' : typeof keyNode.result}, not as text; put it in quotes`);
  }
}

function parseRecord(key: string, record: unknown, position: number, opts: SecurityOptions): ApiKey {
  const hasName = isMap(record) && typeof record.name === 'string' && record.name.trim() !== '';
  const label = hasName ? `key "${(record as { name: string }).name}"` : `key #${position}`;
  if (!isMap(record)) return fail(`${label}: must be a map with name, rate_limit and enabled`);
  for (const field of Object.keys(record)) {
    if (!RECORD_FIELDS.has(field)) fail(`${label}: ${unknownField(field, RECORD_FIELDS)}`);
  }
  if (record.name === undefined) fail(`${label}: name is missing (${REQUIRED_FIELDS})`);
  if (!hasName) fail(`${label}: name must be a non-empty string`);
  if (!KEY_FORM.test(key)) fail(`${label}: the key must be 8 to 256 printable ASCII characters without spaces`);

  const rate = record.rate_limit ?? opts.defaultRateLimit;
  if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 1) {
    fail(`${label}: rate_limit must be a positive whole number (requests per minute), got ${describeValue(rate)}`);
  }
  if (record.enabled === undefined) fail(`${label}: enabled is missing (${REQUIRED_FIELDS})`);
  if (typeof record.enabled !== 'boolean') fail(`${label}: enabled must be true or false`);
  const role = record.role ?? 'reader';
  const digest = sha256(key);
  if (!KEY_ROLES.includes(role as KeyRole)) fail(`${label}: role must be ${KEY_ROLES.join(' or ')} (left out = reader)`);
  const parsed: ApiKey = {
    name: (record.name as string).trim(),
    rateLimit: rate as number,
    enabled: record.enabled as boolean,
    role: role as KeyRole,
    digest,
    keyId: digest.toString('hex'),
    id: rateLimitId(key),
    fingerprint: fingerprintOf(key),
  };
  KEY_TEXTS.set(parsed, key);
  return parsed;
}

/** Each parsed record's key text, off the record itself (see the file's head). */
const KEY_TEXTS = new WeakMap<ApiKey, string>();

/** The text of a key read from the key file (null for a record made by hand): what its owner's feed URLs carry. */
export const keyTextOf = (key: ApiKey): string | null => KEY_TEXTS.get(key) ?? null;

/** Parse and validate the file's text. Throws SecurityConfigError naming the record at fault. */
export function parseSecurityConfig(text: string, opts: SecurityOptions): ApiKey[] {
  const { doc, root } = parseYaml(text);
  refuseNonStringKeys(root);
  if (!isMap(doc)) return fail('must be a map with a "security" section');
  for (const k of Object.keys(doc)) if (k !== 'security') fail(`top level: ${unknownField(k, ['security'])}`);
  const security = doc.security;
  if (!isMap(security)) return fail('"security" must be a map with an "api_keys" section');
  for (const k of Object.keys(security)) if (k !== 'api_keys') fail(`"security": ${unknownField(k, ['api_keys'])}`);
  // `api_keys:` with nothing under it is an operator switching every key off: allowed, logged by the ring.
  const keys = security.api_keys ?? {};
  if (!isMap(keys)) return fail('"security.api_keys" must be a map from API key to {name, rate_limit, enabled, role}');
  return Object.entries(keys).map(([key, record], i) => parseRecord(key, record, i + 1, opts));
}
