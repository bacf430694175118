import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { mergeResults, parseResults } from '../../bench/results-file';

describe('bench/RESULTS.md blocks', () => {
  const full = mergeResults('', new Map([['store', '#### Store\nold store\n'], ['api', '#### API\nold api\n']]), ['store', 'api'], 'Last run: all');

  it('a partial run replaces its own block and keeps the others', () => {
    const after = mergeResults(full, new Map([['api', '#### API\nnew api\n']]), ['store', 'api'], 'Last run: api');
    const blocks = parseResults(after);
    assert.deepEqual([...blocks.keys()], ['store', 'api']);
    assert.match(blocks.get('store')!, /old store/);
    assert.match(blocks.get('api')!, /new api/);
    assert.doesNotMatch(after, /old api/);
    assert.match(after, /Last run: api\n$/);
    assert.doesNotMatch(after, /Last run: all/);
  });

  it('a new benchmark is added in run order and an unknown old block is kept', () => {
    const after = mergeResults(full, new Map([['search', '#### Search\n']]), ['search', 'api'], 'x');
    assert.deepEqual([...parseResults(after).keys()], ['search', 'api', 'store']);
  });

  it('merging is stable: the same blocks give the same file', () => {
    const again = mergeResults(full, new Map(), ['store', 'api'], 'Last run: all');
    assert.equal(again, full);
  });

  it('the checked-in RESULTS.md is in blocks', () => {
    const text = readFileSync(path.join(__dirname, '../../bench/RESULTS.md'), 'utf8');
    assert.ok(parseResults(text).has('store'));
  });
});
