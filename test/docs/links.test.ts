// Every relative link in the README, docs/ and bench/RESULTS.md resolves: the file exists, and a `#fragment` names a
// heading of that file as GitHub spells its anchors. Facts moved between pages keep their links.

import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const PAGES = ['README.md', 'bench/RESULTS.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string): string =>
  heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (m === null) continue;
    const base = anchorOf(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The relative link targets of a page, outside code blocks and code spans. */
function linksOf(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

describe('links in the README and docs/', function () {
  for (const page of PAGES) {
    it(`every relative link of ${page} resolves`, function () {
      const from = path.join(ROOT, page);
      const broken: string[] = [];
      for (const link of linksOf(from)) {
        const [target = '', fragment] = link.split('#', 2);
        const file = target === '' ? from : path.resolve(path.dirname(from), decodeURIComponent(target));
        if (!existsSync(file)) {
          broken.push(`${link}: no such file`);
          continue;
        }
        if (fragment !== undefined && fragment !== '' && statSync(file).isFile() && file.endsWith('.md') && !anchorsOf(file).has(decodeURIComponent(fragment).toLowerCase())) {
          broken.push(`${link}: no such heading`);
        }
      }
      expect(broken, `broken links in ${page}`).to.deep.equal([]);
    });
  }
});
