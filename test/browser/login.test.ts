/**
 * Login in real Chromium (issue #22 § Login, § Tests: "login by fragment and by form"): the
 * `#token=` shortcut leaves the address bar and names the user; the form logs in and goes back
 * to the page the user was on; a wrong token shows "not logged in"; Log out forgets the token.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { pageText, screenshot, useConsole, waitForText } from './harness.js';

/** The name the navigation shows as logged in (waits for it). */
async function shownUser(page: Page): Promise<string> {
  await page.waitForSelector('.nav-username', { timeout: 5000 });
  return page.$eval('.nav-username', (e) => e.textContent ?? '');
}

describe('console login (issue #22 § Login)', function () {
  this.timeout(60_000);
  const ui = useConsole({ users: { admin: ['system:masters'], alice: [] } });

  before(async () => {
    const res = await ui().admin.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'login-visible' } });
    expect(res.status).to.equal(201);
  });

  it('by fragment: the token leaves the address bar, stays in sessionStorage only, and the user is named', async () => {
    const page = await ui().openConsole('/', { token: ui().token('alice') });
    expect(await shownUser(page)).to.equal('alice');
    await waitForText(page, 'Logged in as');
    expect(page.url()).to.equal(`${ui().server.url}/console/`);
    expect(page.url()).not.to.include(ui().token('alice'));
    const stored = await page.evaluate(() => ({ session: Object.values(sessionStorage), local: Object.values(localStorage), cookie: document.cookie }));
    expect(stored.session).to.include(ui().token('alice'));
    expect(stored.local).to.deep.equal([]);
    expect(stored.cookie).to.equal('');
    await screenshot(page, 'login-fragment');
  });

  it('by form: the token is taken, and the console returns to the page the user was on', async () => {
    const page = await ui().openConsole('/api/v1/namespaces/default/configmaps', { token: 'not-a-token' });
    await waitForText(page, 'Not logged in.');
    await page.click('.error.unauthorized a');
    await page.waitForSelector('#login-token');
    expect(new URL(page.url()).pathname).to.equal('/console/login');
    await page.type('#login-token', ui().token('admin'));
    await page.click('.login-form button[type=submit]');
    await waitForText(page, 'login-visible');
    expect(new URL(page.url()).pathname).to.equal('/console/api/v1/namespaces/default/configmaps');
    expect(await shownUser(page)).to.equal('admin');
    await screenshot(page, 'login-form-returned');
  });

  it('a wrong token in the fragment shows "not logged in" with a link to the login page', async () => {
    const page = await ui().openConsole('/', { token: 'wrong-token' });
    await waitForText(page, 'Not logged in');
    expect(await page.$('.nav-username')).to.equal(null);
    expect(await page.$eval('.nav-user a', (a) => a.getAttribute('href'))).to.equal('/console/login');
    expect(await page.$eval('.error.unauthorized', (e) => (e as HTMLElement).innerText)).to.match(/^Not logged in\. Unauthorized/);
    await screenshot(page, 'login-wrong-token');
  });

  it('a wrong token in the form is refused there as "not logged in" and not kept', async () => {
    const page = await ui().openConsole('/login');
    await page.type('#login-token', 'wrong-token');
    await page.click('.login-form button[type=submit]');
    // The form's own error box (the navigation says "Not logged in." on this page from the start).
    await page.waitForSelector('.login .error.unauthorized');
    expect(await page.$eval('.login .error.unauthorized', (e) => (e as HTMLElement).innerText)).to.match(/^Not logged in\./);
    expect(new URL(page.url()).pathname).to.equal('/console/login');
    expect(await page.evaluate(() => Object.values(sessionStorage))).not.to.include('wrong-token');
    await screenshot(page, 'login-form-wrong-token');
  });

  it('Log out forgets the token and goes to the login page', async () => {
    const page = await ui().openConsole('/', { token: ui().token('alice') });
    expect(await shownUser(page)).to.equal('alice');
    await page.click('.nav-logout');
    await page.waitForSelector('#login-token');
    expect(new URL(page.url()).pathname).to.equal('/console/login');
    expect(await page.evaluate(() => Object.values(sessionStorage))).not.to.include(ui().token('alice'));
    await waitForText(page, 'Not logged in');
    expect(await pageText(page)).not.to.include('alice');
  });

  it('the home page shows the server version and the user, with links to namespaces, Health and Access', async () => {
    const page = await ui().openConsole('/', { token: ui().token('admin') });
    const version = (await ui().admin.get('/version')).body.gitVersion as string;
    await waitForText(page, version);
    await page.waitForFunction(() => document.querySelector('.home-user')?.textContent?.startsWith('admin'), { timeout: 5000, polling: 50 });
    const links = await page.$$eval('.home-links a', (as) => as.map((a) => a.getAttribute('href')));
    expect(links).to.deep.equal(['/console/api/v1/namespaces', '/console/health', '/console/access']);
    await screenshot(page, 'home');
  });
});
