// The pages that stand between a client and the content: the EU consent wall and the captcha page.
// Both keep the structure of the real captures (consent-page.html, captcha-429.html), trimmed of
// styling: what clients detect (form actions, hidden inputs, class names) is kept as is.

import { escapeXml, html, redirect, type FakeRequest, type FakeResponse } from './http';

/** The hidden `v` a client echoes in `CONSENT=YES+<v>`. */
export const CONSENT_V = 'cb.20260708-17-p0.en+FX+119';

/** Cookies that let a client past the wall: `SOCS=…` or `CONSENT=YES+…`. */
export function hasConsent(req: FakeRequest): boolean {
  const socs = req.cookies.get('SOCS');
  const consent = req.cookies.get('CONSENT');
  return (socs !== undefined && socs !== '') || (consent !== undefined && consent.startsWith('YES+'));
}

export function consentRedirect(continueUrl: string): FakeResponse {
  const q = new URLSearchParams({ continue: continueUrl, gl: 'DE', m: '0', pc: 'yt', cm: '2', hl: 'en', src: '1' });
  return redirect(`https://consent.youtube.com/m?${q.toString()}`);
}

export function consentPage(continueUrl: string): FakeResponse {
  const cont = escapeXml(continueUrl);
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${value}">`;
  return html(
    `<!DOCTYPE html><html lang="en" dir="ltr"><head><style nonce="8VuN4FiQoUKCWSNl9VnOhg">.box{max-width:520px}</style>` +
      `<title>Before you continue to YouTube</title>` +
      `<meta name="viewport" content="initial-scale=1, maximum-scale=5, width=device-width">` +
      `<link rel="shortcut icon" href="//www.google.com/favicon.ico"></head><body>` +
      `<div class="signin"><a href="https://accounts.google.com/ServiceLogin?hl=en&amp;continue=${encodeURIComponent(continueUrl)}&amp;gae=cb-24020387" class="button">Sign in</a></div>` +
      `<div class="box"><h1>Before you continue to YouTube</h1>` +
      `<p>Google uses <a href="https://policies.google.com/technologies/cookies?hl=en&utm_source=ucb" target="_blank">cookies</a> and data to deliver and maintain services and ads.</p>` +
      `<div><a href="https://consent.youtube.com/dl?continue=${encodeURIComponent(continueUrl)}&amp;gl=DE&amp;hl=en&amp;pc=yt&amp;uxe=24020387&amp;src=1" class="button">Customize</a>` +
      `<form action="https://consent.youtube.com/s" method="POST" style="display:inline;">` +
      hidden('gl', 'DE') +
      hidden('m', '0') +
      hidden('pc', 'yt') +
      hidden('continue', cont) +
      hidden('ca', 'r') +
      hidden('x', '8') +
      hidden('v', CONSENT_V) +
      hidden('t', 'ADw3F8g8aGOdnUecosRgDrAJqqz40u4HBw:1783000000000') +
      hidden('hl', 'en') +
      hidden('src', '1') +
      hidden('uxe', '24020387') +
      `<input type="submit" value="Accept all" class="button" aria-label="Accept the use of cookies and other data for the purposes described"/></form></div></div>` +
      `<div class="footer"><form action="https://consent.youtube.com/ml" method="get">` +
      hidden('gl', 'DE') +
      hidden('continue', cont) +
      `<input type="submit" value="Save"></form></div></body></html>`,
  );
}

/** The captcha page ("Our systems have detected unusual traffic"), sent with 429 or 200. */
export function captchaPage(nextPath: string, status: number): FakeResponse {
  return html(
    `<!DOCTYPE html>\n<html>\n  <head>\n    <title>YouTube</title>\n` +
      `    <script src="https://www.google.com/recaptcha/api.js?hl=en" async defer nonce="upPiqA/fwe4T7vXFBXo5Gw"></script>\n` +
      `    <style nonce="upPiqA/fwe4T7vXFBXo5Gw">.g-recaptcha { display: inline-block; }</style>\n  </head>\n  <body>\n` +
      `    <div id="captcha-page">\n      <div id="captcha-page-content">\n` +
      `        <p>Sorry for the interruption. We have been receiving a large volume of requests from your network.</p>\n` +
      `        <p>To continue with your YouTube experience, please fill out the form below.</p>\n` +
      `        <form action="/das_captcha?fw=1" method="POST">\n` +
      `          <div class="g-recaptcha" data-sitekey="6Lf39AMTAAAAALPbLZdcrWDa8Ygmgk_fmGmrlRog"></div>\n` +
      `          <br /><input type="hidden" name="action_recaptcha_verify2" value="1" />` +
      `<input type="hidden" name="next" value="${escapeXml(nextPath)}" /><input type="submit" value="Submit" />\n` +
      `        </form>\n      </div>\n      <span id="captcha-page-vertical-align"></span>\n    </div>\n  </body>\n</html>\n`,
    status,
  );
}
