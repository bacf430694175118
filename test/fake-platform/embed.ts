// GET /embed/<id>: the embedded player page (docs/crawler.md §4). In a real browser the web player
// holds its own proof-of-origin token; with captions switched on (`cc_load_policy=1`,
// `cc_lang_pref=<lang>`) it requests `/api/timedtext?…&pot=…` itself. The fake's page does the same
// with a small inline script: it picks the track, computes a token from a nonce the fake issued
// with the page (the same arithmetic as the JS challenge), and fetches the WEB caption URL (`exp=xpe`)
// with `&fmt=json3&pot=<token>`. Only a client that runs the script gets a token; the timed-text
// endpoint serves an `exp=xpe` URL only with a token the fake issued.
// With `enablejsapi=1` (as a page embedding the player for its IFrame API asks) the page also speaks
// that API's postMessage protocol and records the seeks it is sent (iframe-api.ts): the web app's
// transcript page talks to this player in the end-to-end journey.

import { randomBytes } from 'node:crypto';
import type { FakeContext } from './context';
import { html, type FakeRequest, type FakeResponse } from './http';
import { generateCues, lengthOf } from './cues';
import { iframeApiScript, PLAYER_STATE_HTML } from './iframe-api';
import { captionUrl } from './timedtext';

const unavailablePage = (): FakeResponse =>
  html('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>YouTube</title></head>' +
    '<body><div class="ytp-error"><div class="ytp-error-content-wrap-reason">Video unavailable</div></div></body></html>');

/** Flags for one video's embed page, remembered for the player's check (bounded like the tokens). */
function issueHostFlags(ctx: FakeContext, videoId: string): string {
  if (ctx.hostFlags.size > 10_000) ctx.hostFlags.clear();
  const flags = `AKz${randomBytes(24).toString('base64url')}`;
  ctx.hostFlags.set(flags, videoId);
  return flags;
}

export function embedRoute(ctx: FakeContext, req: FakeRequest): FakeResponse {
  const videoId = decodeURIComponent(req.path.slice('/embed/'.length));
  const hosted = ctx.catalog.video(videoId);
  if (!hosted || hosted.video.captions === 'unavailable' || hosted.video.captions === 'age_restricted') return unavailablePage();
  const tracks = ctx.catalog.tracks(hosted.video).map((t) => ({
    lang: t.languageCode,
    asr: t.kind === 'asr',
    url: captionUrl(ctx.origin, videoId, t, { fmt: null, needsToken: true }),
  }));
  const config = { videoId, tracks, nonce: ctx.tokens.issue() };
  // `</` cannot end the script early: JSON.stringify leaves it, so it is escaped.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  // The page's player config, where the embedded player's encryptedHostFlags live (yt-dlp reads
  // them from WEB_PLAYER_CONTEXT_CONFIGS before asking the WEB_EMBEDDED_PLAYER client).
  const ytcfg = JSON.stringify({
    INNERTUBE_CLIENT_NAME: 'WEB_EMBEDDED_PLAYER',
    WEB_PLAYER_CONTEXT_CONFIGS: { WEB_PLAYER_CONTEXT_CONFIG_ID_EMBEDDED_PLAYER: { contextId: 'WEB_PLAYER_CONTEXT_CONFIG_ID_EMBEDDED_PLAYER', encryptedHostFlags: issueHostFlags(ctx, videoId), isEmbed: true } },
  });
  const widget = req.query.get('enablejsapi') === '1';
  // The length the player answer gives (videoDetails.lengthSeconds), for initialDelivery.
  const seconds = lengthOf(hosted.video.cues ?? generateCues(videoId, hosted.video.language));
  return html(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${videoId} - YouTube</title>` +
      `<script>var ytcfg = window.ytcfg || { set: function () {} }; ytcfg.set(${ytcfg.replace(/</g, '\\u003c')});</script></head>` +
      `<body><div id="player"><div class="caption-window"></div></div>${widget ? PLAYER_STATE_HTML : ''}` +
      `<script>(function () {\n` +
      `  var cfg = ${json};\n` +
      `  var q = new URLSearchParams(location.search);\n` +
      `  if (q.get("cc_load_policy") !== "1" || cfg.tracks.length === 0) return;\n` +
      `  var pref = q.get("cc_lang_pref") || "en";\n` +
      `  var t = cfg.tracks.filter(function (x) { return x.lang === pref && !x.asr; })[0] ||\n` +
      `    cfg.tracks.filter(function (x) { return x.lang === pref; })[0] || cfg.tracks[0];\n` +
      `  var n = cfg.nonce, h = 7;\n` +
      `  for (var r = 0; r < 1000; r++) for (var i = 0; i < n.length; i++) h = (Math.imul(h, 31) + n.charCodeAt(i)) >>> 0;\n` +
      `  fetch(t.url + "&fmt=json3&c=WEB_EMBEDDED_PLAYER&pot=" + n + "." + h.toString(16))\n` +
      `    .then(function (res) { return res.text(); })\n` +
      `    .then(function (body) { document.querySelector(".caption-window").textContent = body.length + " bytes of captions"; });\n` +
      `})();</script>${widget ? `<script>${iframeApiScript(seconds)}</script>` : ''}</body></html>`,
  );
}
