// The one table of what each endpoint makes of a 404, a failure or a broken body.

import { expect } from 'chai';
import { classifyAnswer, type RawAnswer } from '../../shared/platform/classify';
import { ENDPOINTS, readJson, readText, type EndpointRule } from '../../shared/platform/endpoint-rules';
import type { HttpAnswer } from '../../shared/platform/http-client';
import { PlatformError } from '../../shared/platform/types';

const answer = (over: Partial<RawAnswer>): HttpAnswer => {
  const raw: RawAnswer = { status: 200, contentType: 'application/json', body: '{}', location: null, ...over };
  return { ...raw, url: 'http://127.0.0.1/x', verdict: classifyAnswer(raw) };
};
const NOT_FOUND = answer({ status: 404, body: '{"error":{"code":404,"status":"NOT_FOUND"}}' });
const SERVER_ERROR = answer({ status: 503, body: '{"error":{"code":503}}' });
const BROKEN = answer({ body: '{"playabilityStatus":' });
const BLOCKED = answer({ status: 429, contentType: 'text/html', body: '<div class="g-recaptcha"></div>' });

const thrown = (f: () => unknown): PlatformError => {
  try {
    f();
  } catch (err) {
    if (err instanceof PlatformError) return err;
    throw err;
  }
  throw new Error('nothing thrown');
};

describe('endpoint rules (one per endpoint)', () => {
  it('a 404 means: no such handle, video gone, caption URL expired, channel missing, list through browse', () => {
    expect(readJson(NOT_FOUND, ENDPOINTS.resolveUrl)).to.deep.equal({ kind: 'absent' });
    expect(readText(NOT_FOUND, ENDPOINTS.handlePage)).to.deep.equal({ kind: 'absent' });
    expect(readJson(NOT_FOUND, ENDPOINTS.datePlayer)).to.deep.equal({ kind: 'absent' });
    expect(thrown(() => readJson(NOT_FOUND, ENDPOINTS.player)).outcome).to.equal('unavailable');
    expect(thrown(() => readText(NOT_FOUND, ENDPOINTS.timedText)).outcome).to.equal('transient');
    expect(thrown(() => readJson(NOT_FOUND, ENDPOINTS.browse)).outcome).to.equal('not_found');
    expect(thrown(() => readJson(NOT_FOUND, ENDPOINTS.visitorId)).outcome).to.equal('transient');
    expect(readText(NOT_FOUND, ENDPOINTS.channelFeed)).to.deep.equal({ kind: 'fallback', reason: 'channel feed: HTTP 404' });
  });

  it('other failures are thrown as found, except where the endpoint has another way', () => {
    expect(readJson(SERVER_ERROR, ENDPOINTS.resolveUrl).kind).to.equal('fallback');
    expect(readText(SERVER_ERROR, ENDPOINTS.channelFeed).kind).to.equal('fallback');
    for (const r of [ENDPOINTS.player, ENDPOINTS.browse, ENDPOINTS.timedText, ENDPOINTS.visitorId, ENDPOINTS.handlePage] as EndpointRule[]) {
      const err = thrown(() => readJson(SERVER_ERROR, r));
      expect(err.outcome, r.what).to.equal('transient');
      expect(err.reason).to.equal(`${r.what}: HTTP 503`);
    }
  });

  it('unparsable JSON is transient, or the other way for resolve_url', () => {
    expect(readJson(BROKEN, ENDPOINTS.resolveUrl)).to.deep.equal({ kind: 'fallback', reason: 'resolve_url: unparsable JSON' });
    expect(thrown(() => readJson(BROKEN, ENDPOINTS.player)).reason).to.equal('player: unparsable JSON');
    expect(readJson(answer({ body: '{"a":1}' }), ENDPOINTS.player)).to.deep.equal({ kind: 'ok', value: { a: 1 } });
  });

  it('a refusal is thrown by every endpoint, even those with another way', () => {
    for (const r of Object.values(ENDPOINTS) as EndpointRule[]) {
      expect(thrown(() => readText(BLOCKED, r)).outcome, r.what).to.equal('blocked');
    }
  });
});
