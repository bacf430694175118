// Plain text: one channel reference per line, in any form GET / accepts (or a platform feed URL).
// Blank lines and lines starting with `#` are skipped.

import { followRefOf } from '../channel-refs';
import { REASONS, shown, type ImportEntry, type ParsedImport, type RejectedEntry } from '../parsed-import';

export function readTextLines(text: string): ParsedImport {
  const entries: ImportEntry[] = [];
  const rejected: RejectedEntry[] = [];
  text.split(/\r?\n|\r/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const ref = followRefOf(line);
    if (ref) entries.push({ ref, title: null, line: i + 1 });
    else rejected.push({ line: i + 1, text: shown(line), reason: REASONS.notAChannel });
  });
  return { format: 'text', entries, rejected };
}
