import { Writable } from 'node:stream';
import { expect } from 'chai';
import { categoryLogger, createLogger, redactApiKeyInText, type LogLevel } from '../../shared/logger';

/** A captured log stream (after pino's test helper `sink`): every line parsed as JSON. */
function capture(level: LogLevel = 'debug') {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      cb();
    },
  });
  const logger = createLogger({ level, format: 'json', stream });
  return { logger, lines, raw };
}

describe('logger', () => {
  it('labels levels DEBUG, INFO, WARNING, ERROR with ISO timestamps and categories', () => {
    const { logger, lines } = capture();
    const log = categoryLogger(logger, 'crawler.batch');
    log.debug('d');
    log.info('i');
    log.warning('w');
    log.error('e');
    expect(lines.map((l) => l.level)).to.deep.equal(['DEBUG', 'INFO', 'WARNING', 'ERROR']);
    for (const l of lines) {
      expect(l.category).to.equal('crawler.batch');
      expect(String(l.time)).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it('gives a line logged on the root logger the process\'s category, and leaves every other line as it was', () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        cb();
      },
    });
    const root = createLogger({ level: 'info', format: 'json', stream, base: { process: 'crawler' } });
    root.info({ owner: 'a' }, 'from the root');
    categoryLogger(root, 'crawler.batch').info({ n: 1 }, 'from a category');
    root.info('again from the root');
    categoryLogger(categoryLogger(root, 'api'), 'api.feed').info('nested');
    expect(lines.map((l) => [l.category, l.msg])).to.deep.equal([['crawler', 'from the root'], ['crawler.batch', 'from a category'], ['crawler', 'again from the root'], ['api.feed', 'nested']]);
    // Nothing of one line's fields is carried into the next.
    expect(lines[2]).not.to.have.property('owner');
    expect(lines[1]).not.to.have.property('owner');
  });

  it('stamps each line with the millisecond it is written in, however many lines share one', () => {
    const { logger, lines } = capture();
    const bounds: Array<[number, number]> = [];
    for (let i = 0; i < 3; i++) {
      const before = Date.now();
      logger.info('a');
      logger.info('b');
      bounds.push([before, Date.now()], [before, Date.now()]);
      // The next pair in a later millisecond: its stamp is made afresh.
      for (const at = Date.now(); Date.now() === at; );
    }
    expect(lines).to.have.length(6);
    lines.forEach((l, i) => {
      const t = Date.parse(String(l.time));
      expect(t, String(l.time)).to.be.within(bounds[i]![0], bounds[i]![1]);
    });
    expect(new Set(lines.map((l) => l.time)).size).to.be.at.least(3);
  });

  it('writes every err in one shape: type, message, stack and own fields, without the raw cause', () => {
    const { logger, lines, raw } = capture();
    class OutcomeError extends Error {
      readonly outcome = 'transient';
    }
    const cause = new Error('connect ECONNREFUSED via http://user:proxy-password@10.0.0.1:3128');
    logger.warning({ err: new OutcomeError('transient: network error (ECONNREFUSED)', { cause }) }, 'platform request failed');
    logger.error({ err: new TypeError('boom') }, 'a bug');
    logger.info({ err: 'a plain text' }, 'not an Error');
    expect(lines[0]!.err).to.deep.include({ type: 'OutcomeError', message: 'transient: network error (ECONNREFUSED)', outcome: 'transient' });
    expect((lines[0]!.err as { stack: string }).stack).to.match(/^Error: transient: network error \(ECONNREFUSED\)\n\s+at /);
    expect(raw[0], 'the safe message only, never the raw cause').not.to.contain('proxy-password');
    expect(lines[1]!.err).to.deep.include({ type: 'TypeError', message: 'boom' });
    expect(lines[2]!.err).to.equal('a plain text');
  });

  it('drops lines below the configured level', () => {
    const { logger, lines } = capture('warning');
    logger.info('hidden');
    logger.warning('shown');
    expect(lines.map((l) => l.msg)).to.deep.equal(['shown']);
  });

  it('never writes an API key: query parameter, header, or inside a URL or message', () => {
    const { logger, raw } = capture();
    const key = 'sk-live-SUPERSECRET-123';
    const log = categoryLogger(logger, 'api.http');
    log.info({ url: `/?channel=x&api_key=${key}`, query: { api_key: key } }, 'request');
    log.info({ req: { headers: { 'x-api-key': key, accept: '*/*' }, query: { api_key: key } } }, 'request');
    log.info({ headers: { 'x-api-key': key } }, 'headers');
    log.error({ err: new Error(`failed for /?api_key=${key}`) }, `failed GET /?format=Rss&api_key=${encodeURIComponent(key)}&x=1`);
    log.info({ apiKey: key }, 'field');
    expect(raw).to.have.length(5);
    for (const line of raw) expect(line).not.to.contain('SUPERSECRET');
    expect(raw.join('\n')).to.contain('[REDACTED]');
  });

  it('redacts URL-encoded api_key parameters in text', () => {
    expect(redactApiKeyInText('/?a=1&api_key=abc&b=2')).to.equal('/?a=1&api_key=[REDACTED]&b=2');
    expect(redactApiKeyInText('next%3Fapi_key%3Dabc')).to.equal('next%3Fapi_key%3D[REDACTED]');
  });
});
