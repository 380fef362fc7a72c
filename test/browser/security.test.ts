/**
 * The console's security cases in real Chromium (issue #22 § Tests: security cases): a page
 * opened without a token shows no data; the strict Content-Security-Policy comes with the page,
 * and the app runs under it with no violation.
 */
import { expect } from 'chai';
import type { HTTPResponse, Page } from 'puppeteer-core';
import { CONSOLE_CSP } from '../../lib/server/console.js';
import { pageText, screenshot, useConsole, waitForText } from './harness.js';

/** Records every CSP violation the page reports (installed before any of its scripts runs). */
async function recordViolations(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) fromConsole.push(m.text());
  });
  await page.evaluateOnNewDocument(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  return async () => [...fromConsole, ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations))];
}

/** Waits until the app has rendered something into `#app` and its requests have settled. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => (document.getElementById('app')?.childElementCount ?? 0) > 0, { timeout: 5000, polling: 50 });
  await page.waitForNetworkIdle({ idleTime: 300, timeout: 10_000 });
}

describe('console security (issue #22 § Tests: security cases)', function () {
  this.timeout(60_000);
  const ui = useConsole({ users: { admin: ['system:masters'] } });
  const secret = 'secret-looking-config';

  before(async () => {
    const res = await ui().admin.post('/api/v1/namespaces/default/configmaps', { metadata: { name: secret }, data: { password: 'hunter2' } });
    expect(res.status).to.equal(201);
  });

  it('a page opened without a token shows no data: every data request is refused and no object name appears', async () => {
    const page = await ui().newPage();
    const dataResponses: HTTPResponse[] = [];
    page.on('response', (r) => {
      const p = new URL(r.url()).pathname;
      if (p.startsWith('/api/') || p.startsWith('/apis/')) dataResponses.push(r);
    });
    await page.goto(ui().consoleURL('/api/v1/namespaces/default/configmaps'), { waitUntil: 'load' });
    await settled(page);
    // The page says the user is not logged in (or shows the login form).
    await page.waitForFunction(() => /not logged in|log in/i.test(document.body.innerText), { timeout: 5000, polling: 50 });
    await screenshot(page, 'security-no-token');
    const text = await pageText(page);
    expect(text).not.to.include(secret);
    expect(text).not.to.include('hunter2');
    for (const r of dataResponses.filter((r) => /\/configmaps/.test(new URL(r.url()).pathname))) expect(r.status(), r.url()).to.be.oneOf([401, 403]);
    expect(await page.evaluate(() => sessionStorage.getItem('console.token'))).to.equal(null);
  });

  it('the same list with the admin token shows the object (the no-token case above is not vacuous)', async () => {
    const page = await ui().openConsole('/api/v1/namespaces/default/configmaps', { token: ui().token('admin') });
    await waitForText(page, secret);
  });

  it('the page comes with the strict Content-Security-Policy, nosniff and no referrer', async () => {
    const page = await ui().newPage();
    const res = await page.goto(ui().consoleURL('/'), { waitUntil: 'load' });
    const headers = res!.headers();
    expect(headers['content-security-policy']).to.equal(CONSOLE_CSP);
    expect(headers['content-security-policy']).to.include("script-src 'self';");
    expect(headers['x-content-type-options']).to.equal('nosniff');
    expect(headers['referrer-policy']).to.equal('no-referrer');
  });

  // Each page once it has drawn what it shows (`drawn`: the health page's uPlot charts, which style elements from script).
  for (const [name, consolePath, drawn] of [
    ['home', '/', undefined],
    ['list', '/api/v1/namespaces/default/configmaps', undefined],
    ['object', `/api/v1/namespaces/default/configmaps/${secret}`, undefined],
    ['health', '/health', '.uplot'],
    ['access', '/access', undefined],
  ] as const) {
    it(`the ${name} page runs under the CSP with no violation`, async () => {
      const page = await ui().newPage();
      const violations = await recordViolations(page);
      await page.goto(ui().consoleURL(consolePath, { token: ui().token('admin') }), { waitUntil: 'load' });
      await settled(page);
      if (drawn) await page.waitForSelector(drawn, { timeout: 10_000 });
      await screenshot(page, `security-csp-${name}`);
      expect(await violations()).to.deep.equal([]);
    });
  }

  it('an inline script is blocked and reported (the violation check above can fail)', async () => {
    const page = await ui().newPage();
    const violations = await recordViolations(page);
    await page.goto(ui().consoleURL('/'), { waitUntil: 'load' });
    await settled(page);
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.inlineRan = true';
      document.body.appendChild(s);
    });
    await page.waitForFunction(() => (window as unknown as { cspViolations: string[] }).cspViolations.length > 0, { timeout: 5000, polling: 50 });
    expect(await page.evaluate(() => (window as unknown as { inlineRan?: boolean }).inlineRan)).to.equal(undefined);
    expect((await violations()).join('\n')).to.include('script-src');
  });
});
