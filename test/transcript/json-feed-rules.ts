// JSON Feed 1.1's published rules (https://www.jsonfeed.org/version/1.1/) as a checker: every
// required field present with its type, optional ones typed when present, at least one of
// content_html/content_text per item, unique item ids, RFC 3339 dates, and nothing unknown outside
// the `_` extension names. Returns the list of violations (empty = valid).

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const FEED_KEYS = ['version', 'title', 'home_page_url', 'feed_url', 'description', 'user_comment', 'next_url', 'icon', 'favicon', 'authors', 'author', 'language', 'expired', 'hubs', 'items'];
const ITEM_KEYS = ['id', 'url', 'external_url', 'title', 'content_html', 'content_text', 'summary', 'image', 'banner_image', 'date_published', 'date_modified', 'authors', 'author', 'tags', 'language', 'attachments'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function isUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}

function checkAuthors(v: unknown, where: string, out: string[]): void {
  if (v === undefined) return;
  if (!Array.isArray(v)) return void out.push(`${where}.authors must be an array`);
  v.forEach((a, i) => {
    if (!isObj(a) || !['name', 'url', 'avatar'].some((k) => typeof a[k] === 'string')) out.push(`${where}.authors[${i}] needs a name, url or avatar string`);
  });
}

function unknownKeys(o: Obj, known: readonly string[], where: string, out: string[]): void {
  for (const k of Object.keys(o)) if (!known.includes(k) && !k.startsWith('_')) out.push(`${where}: unknown key ${k} (extensions start with _)`);
}

export function jsonFeedViolations(doc: unknown): string[] {
  const out: string[] = [];
  if (!isObj(doc)) return ['the top level must be an object'];
  if (doc.version !== 'https://jsonfeed.org/version/1.1') out.push('version must be https://jsonfeed.org/version/1.1');
  if (typeof doc.title !== 'string') out.push('title is required and a string');
  for (const k of ['home_page_url', 'feed_url', 'next_url', 'icon', 'favicon']) if (doc[k] !== undefined && !isUrl(doc[k])) out.push(`${k} must be a URL string`);
  for (const k of ['description', 'user_comment', 'language']) if (doc[k] !== undefined && typeof doc[k] !== 'string') out.push(`${k} must be a string`);
  if (doc.expired !== undefined && typeof doc.expired !== 'boolean') out.push('expired must be a boolean');
  checkAuthors(doc.authors, 'feed', out);
  unknownKeys(doc, FEED_KEYS, 'feed', out);
  if (!Array.isArray(doc.items)) return [...out, 'items is required and an array'];
  const ids = new Set<string>();
  doc.items.forEach((item, i) => {
    const at = `items[${i}]`;
    if (!isObj(item)) return void out.push(`${at} must be an object`);
    if (typeof item.id !== 'string' || item.id === '') out.push(`${at}.id is required and a non-empty string`);
    else if (ids.has(item.id)) out.push(`${at}.id ${item.id} is not unique`);
    else ids.add(item.id);
    if (typeof item.content_html !== 'string' && typeof item.content_text !== 'string') out.push(`${at} needs content_html or content_text`);
    for (const k of ['content_html', 'content_text', 'title', 'summary', 'language']) if (item[k] !== undefined && typeof item[k] !== 'string') out.push(`${at}.${k} must be a string`);
    for (const k of ['url', 'external_url', 'image', 'banner_image']) if (item[k] !== undefined && !isUrl(item[k])) out.push(`${at}.${k} must be a URL string`);
    for (const k of ['date_published', 'date_modified']) if (item[k] !== undefined && !(typeof item[k] === 'string' && RFC3339.test(item[k]) && !Number.isNaN(Date.parse(item[k])))) out.push(`${at}.${k} must be RFC 3339`);
    if (item.tags !== undefined && !(Array.isArray(item.tags) && item.tags.every((t) => typeof t === 'string'))) out.push(`${at}.tags must be strings`);
    if (item.attachments !== undefined && !(Array.isArray(item.attachments) && item.attachments.every((a) => isObj(a) && isUrl(a.url) && typeof a.mime_type === 'string'))) out.push(`${at}.attachments need url and mime_type`);
    checkAuthors(item.authors, at, out);
    unknownKeys(item, ITEM_KEYS, at, out);
  });
  return out;
}
