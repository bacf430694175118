// The apps' JSON exports, told apart by their shape:
// * NewPipe `subscriptions.json`: {"subscriptions":[{"service_id":0,"url":…,"name":…}],"app_version":…}
//   (service 0 is the platform; other services are listed as rejected);
// * Invidious's data export: {"subscriptions":["UC…"],"watch_history":[…],"preferences":{…},…};
// * FreeTube's `freetube-subscriptions-<date>.db`: one profile object per line, each
//   {"name":…,"subscriptions":[{"id":"UC…","name":…,"thumbnail":…}],"_id":…} (every profile read,
//   a channel in several profiles counted once by the store);
// * FreeTube's "YouTube (JSON)" export, the platform's old Takeout shape: [{"snippet":{"resourceId":
//   {"channelId":"UC…"},"title":…}}].
// Any other JSON is refused as a whole: guessing at an unknown shape would import the wrong thing.
// The text is collected as it arrives and parsed once at the end (JSON.parse, native: a 2 MB file is
// a few milliseconds); the items are then taken in order, and the 5,001st stops the reading.

import { followRefOf } from '../channel-refs';
import { EntryList, ImportFileError, REASONS, type FormatReader, type ImportFormat, type ParsedImport } from '../parsed-import';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

class Collector {
  readonly list = new EntryList();
  add(line: number, reference: string | null, title: string | null, what: unknown): void {
    const ref = reference === null ? null : followRefOf(reference);
    if (ref) this.list.add(ref, title, line);
    else this.list.reject(line, reference ?? (JSON.stringify(what) ?? '').slice(0, 1000), REASONS.notAChannel);
  }
  result(format: ImportFormat): ParsedImport {
    return this.list.result(format);
  }
}

/** Collects the text; reads it at the end. */
export class JsonExportReader implements FormatReader {
  private readonly pieces: string[] = [];
  push(text: string): void {
    this.pieces.push(text);
  }
  end(): ParsedImport {
    return readJsonExport(this.pieces.join(''));
  }
}

/** 1-based line of a JSON.parse error's position, when the engine names one. */
function errorLine(source: string, err: unknown): number | undefined {
  const m = /position (\d+)/.exec(err instanceof Error ? err.message : '');
  if (!m) return undefined;
  return source.slice(0, Number(m[1])).split('\n').length;
}

function parsesAlone(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

export function readJsonExport(source: string): ParsedImport {
  let doc: unknown;
  try {
    doc = JSON.parse(source);
  } catch (err) {
    // FreeTube's .db: one JSON object per line.
    const lines = source.split(/\r?\n/);
    const profiles = lines.flatMap((l, i) => (l.trim() === '' ? [] : [{ l, i }]));
    if (profiles.length > 1 && parsesAlone(profiles[0]!.l)) return readFreeTubeDb(profiles);
    const line = errorLine(source, err);
    throw new ImportFileError('badJson', `${line === undefined ? '' : `satır ${line}: `}geçerli JSON değil`, line);
  }
  if (Array.isArray(doc)) return readYouTubeJson(doc);
  if (isObject(doc) && Array.isArray(doc.subscriptions)) {
    const subs = doc.subscriptions;
    if (subs.every((s) => typeof s === 'string')) return readInvidious(subs as string[]);
    if (subs.every((s) => isObject(s) && 'url' in s)) return readNewPipe(subs as Record<string, Json>[]);
    if (subs.every((s) => isObject(s) && 'id' in s)) return readFreeTubeProfiles([{ profile: doc, line: 1 }]);
  }
  throw new ImportFileError('jsonShape', 'JSON tanınan bir dışa aktarma değil (NewPipe, FreeTube, Invidious ya da YouTube aboneliklerinden biri olmalı)');
}

function readNewPipe(subs: Record<string, Json>[]): ParsedImport {
  const c = new Collector();
  subs.forEach((s, i) => {
    if (s.service_id !== undefined && s.service_id !== 0) c.list.reject(i + 1, text(s.url) ?? '', REASONS.otherService);
    else c.add(i + 1, text(s.url), text(s.name), s);
  });
  return c.result('newpipe_json');
}

function readInvidious(ids: string[]): ParsedImport {
  const c = new Collector();
  ids.forEach((id, i) => c.add(i + 1, id, null, id));
  return c.result('invidious_json');
}

function readYouTubeJson(items: Json[]): ParsedImport {
  const c = new Collector();
  items.forEach((item, i) => {
    const snippet = isObject(item) ? item.snippet : undefined;
    if (!isObject(snippet)) throw new ImportFileError('jsonShape', `öğe ${i + 1}: 'snippet' yok; JSON dizisi YouTube abonelik listesi olmalı`, i + 1);
    const resource = isObject(snippet.resourceId) ? snippet.resourceId : {};
    c.add(i + 1, text(resource.channelId) ?? text(snippet.channelId), text(snippet.title), item);
  });
  return c.result('youtube_json');
}

function readFreeTubeDb(lines: { l: string; i: number }[]): ParsedImport {
  const profiles = lines.map(({ l, i }) => {
    let profile: unknown;
    try {
      profile = JSON.parse(l);
    } catch {
      throw new ImportFileError('badJson', `satır ${i + 1}: geçerli JSON değil`, i + 1);
    }
    if (!isObject(profile) || !Array.isArray(profile.subscriptions)) {
      throw new ImportFileError('jsonShape', `satır ${i + 1}: FreeTube profili değil ('subscriptions' listesi yok)`, i + 1);
    }
    return { profile, line: i + 1 };
  });
  return readFreeTubeProfiles(profiles);
}

function readFreeTubeProfiles(profiles: { profile: Record<string, Json>; line: number }[]): ParsedImport {
  const c = new Collector();
  for (const { profile, line } of profiles) {
    for (const s of profile.subscriptions as Json[]) {
      const sub = isObject(s) ? s : {};
      c.add(line, text(sub.id), text(sub.name), s);
    }
  }
  return c.result('freetube_db');
}
