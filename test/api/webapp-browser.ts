// The web app's browser-test steps (Debian's Chromium through Playwright): launching it, watching
// a page for console errors, page errors and CSP violations, axe-core over every frame, and a
// browser context signed in with a session made through the real sign-in form over HTTP.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright';
import { chromiumPath } from '../support/process-tree';
import { sessionOf, signIn } from './webapp-support';
import type { TestApi } from './support';

export const CHROMIUM = chromiumPath();
const AXE = readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8');

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright');
  return chromium.launch({ executablePath: CHROMIUM!, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
}

/** A context whose browser holds a session of `key`, signed in through the form over HTTP. */
export async function signedInContext(browser: Browser, api: TestApi, key: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const [name, value] = sessionOf(await signIn(api, key)).split('=') as [string, string];
  const context = await browser.newContext(options);
  await context.addCookies([{ name, value, url: `${api.base}/app/`, httpOnly: true, sameSite: 'Lax' }]);
  return context;
}

/** Console errors, page errors and CSP violations of a page (browser-side code as text: no DOM types here). */
export async function watch(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && problems.push(`console: ${m.text()}`)));
  page.on('pageerror', (e) => void problems.push(`page: ${e.message}`));
  await page.addInitScript({ content: "window.violations = []; document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));" });
  return problems;
}

/** axe-core's full run on the page as it stands: no violation of any rule. */
export async function axeClean(page: Page): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern; in every frame.
  for (const frame of page.frames()) await frame.evaluate(AXE);
  const violations = (await page.evaluate('axe.run(document).then((r) => r.violations.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))')) as string[];
  expect(violations, page.url()).to.deep.equal([]);
}
