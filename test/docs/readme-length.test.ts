// The README stays a five-minute read for a newcomer (issue 28, item 4): at most 250 lines. What does
// not fit belongs to its page in docs/, which the README links.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const MAX_LINES = 250;

describe('the README', function () {
  it(`is at most ${MAX_LINES} lines`, function () {
    const text = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const lines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
    expect(lines, 'README.md lines: move details to docs/').to.be.at.most(MAX_LINES);
  });
});
