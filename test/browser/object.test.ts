/**
 * The object page in real Chromium (issue #22 § One object): its YAML (as text, even when a field
 * holds markup or a `javascript:` URL), kept live; the field-ownership view after a client-side
 * update and a server-side apply; its events; its owners and dependents; errors.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { vendorGroup } from '../../lib/apis/vendor.js';
import { pageText, screenshot, useConsole, waitForText } from './harness.js';

const NS = '/api/v1/namespaces/default/configmaps';

/** What the tests read of a created object. */
interface Created {
  metadata: { name: string; uid: string };
}

/** Waits until `fn` (run in the page) returns true; fails with the page's text after `timeoutMs`. */
async function waitInPage<A>(page: Page, fn: (arg: A) => boolean, arg: A, what: string, timeoutMs = 5000): Promise<void> {
  try {
    await page.waitForFunction(fn as (a: unknown) => boolean, { timeout: timeoutMs, polling: 50 }, arg);
  } catch {
    throw new Error(`${what}: not within ${timeoutMs} ms; the page shows:\n${(await pageText(page)).slice(0, 2000)}`);
  }
}

/** The owner labels of the field-ownership line whose text is `text` (trimmed). */
function ownersOfLine(page: Page, text: string): Promise<string | null> {
  return page.evaluate((t: string) => {
    const line = [...document.querySelectorAll('.owned-line')].find((l) => l.querySelector('.owned-text')?.textContent?.trim() === t);
    return line ? (line.querySelector('.owned-by')?.textContent ?? '') : null;
  }, text);
}

describe('console object page (issue #22 § One object)', function () {
  this.timeout(60_000);
  const ui = useConsole({ users: { admin: ['system:masters'], alice: [] } });
  const admin = () => ui().admin;
  const token = () => ui().token('admin');

  async function create(name: string, data: Record<string, string>, extra: Record<string, unknown> = {}): Promise<Created> {
    const res = await admin().post(`${NS}?fieldManager=editor`, { metadata: { name, ...extra }, data });
    expect(res.status, res.text).to.equal(201);
    return res.body;
  }

  it('shows the YAML of an object as text: markup and javascript: URLs in its fields execute nothing', async () => {
    const payload = { script: '<script>alert(1)</script>', link: 'javascript:alert(1)', img: '<img src=x onerror=alert(1)>' };
    await create('xss', payload);
    const page = await ui().newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(ui().consoleURL(`${NS}/xss`, { token: token() }), { waitUntil: 'load' });
    await waitForText(page, '<script>alert(1)</script>');
    await waitForText(page, 'javascript:alert(1)');
    await waitForText(page, '<img src=x onerror=alert(1)>');
    const yaml = await page.$eval('pre.object-yaml', (el) => ({ text: el.textContent ?? '', elements: el.childElementCount }));
    expect(yaml.text).to.include('kind: ConfigMap').and.include('name: xss');
    expect(yaml.elements, 'the YAML is one text node').to.equal(0);
    for (const tab of ['fields', 'yaml']) {
      await page.click(`.object-tabs a[data-tab="${tab}"]`);
      await waitInPage(page, (t) => document.querySelector('.object-tab')?.getAttribute('data-tab') === t, tab, `tab ${tab}`);
      expect(await page.evaluate(() => location.search), 'the tab is in the URL').to.equal(`?tab=${tab}`);
      await waitForText(page, '<script>alert(1)</script>');
    }
    const dom = await page.evaluate(() => ({
      scripts: [...document.querySelectorAll('script')].map((s) => s.getAttribute('src')),
      jsLinks: document.querySelectorAll('a[href^="javascript:"]').length,
      images: document.querySelectorAll('img').length,
    }));
    expect(dom.scripts, 'only the app script').to.deep.equal(['/console/app.js']);
    expect(dom.jsLinks).to.equal(0);
    expect(dom.images).to.equal(0);
    expect(dialogs).to.deep.equal([]);
    await screenshot(page, 'object-yaml-as-text');
  });

  it('keeps the object current: a change by another client shows without a reload, a deletion shows as deleted', async () => {
    await create('live', { a: 'first' });
    const page = await ui().openConsole(`${NS}/live`, { token: token() });
    await waitForText(page, 'a: first');
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const res = await admin().patch(`${NS}/live`, { data: { a: 'second' } }, 'application/merge-patch+json');
    expect(res.status, res.text).to.equal(200);
    await waitForText(page, 'a: second');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 'no reload').to.equal(42);
    expect(await admin().delete(`${NS}/live`).then((r) => r.status)).to.equal(200);
    await waitForText(page, 'This object was deleted');
    await screenshot(page, 'object-deleted');
  });

  it('opens the tab named by ?tab= and shows an object that does not exist as not found', async () => {
    await create('tabbed', { a: '1' });
    const page = await ui().openConsole(`${NS}/tabbed?tab=related`, { token: token() });
    await waitForText(page, 'Dependents');
    expect(await page.$eval('.object-tabs a.selected', (a) => a.textContent)).to.equal('Related');
    const missing = await ui().openConsole(`${NS}/no-such-object`, { token: token() });
    await waitForText(missing, 'configmaps "no-such-object" not found');
  });

  it('shows a cluster-scoped object by its name alone', async () => {
    const page = await ui().openConsole('/api/v1/namespaces/default?tab=yaml', { token: token() });
    await waitInPage(page, () => document.querySelector('.object-title')?.textContent === 'Namespace default', undefined, 'title "Namespace default"');
    await page.waitForSelector('pre.object-yaml', { timeout: 5000 });
    expect(await page.$eval('pre.object-yaml', (el) => el.textContent)).to.include('kind: Namespace').and.include('name: default');
  });

  it('shows "Not allowed" to a user that may not read the object', async () => {
    await create('private', { a: '1' });
    const page = await ui().openConsole(`${NS}/private`, { token: ui().token('alice') });
    await waitForText(page, 'Not allowed.');
    await waitForText(page, 'cannot get resource "configmaps"');
    expect(await pageText(page)).to.not.include('a: "1"');
    await screenshot(page, 'object-not-allowed');
  });

  it('marks each field with the manager that owns it after a client-side update and a server-side apply', async () => {
    await create('owned', { a: 'created' });
    const update = await admin().patch(`${NS}/owned?fieldManager=editor`, { data: { a: 'edited' } }, 'application/merge-patch+json');
    expect(update.status, update.text).to.equal(200);
    const applied = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: owned\n  labels:\n    tier: web\ndata:\n  b: applied\n';
    const apply = await admin().patch(`${NS}/owned?fieldManager=applier&force=true`, undefined, 'application/apply-patch+yaml', { raw: applied });
    expect(apply.status, apply.text).to.equal(200);
    const page = await ui().openConsole(`${NS}/owned?tab=fields`, { token: token() });
    await waitForText(page, 'b: applied');
    const legend = await page.$$eval('.owner-legend tr[data-manager]', (rows) => rows.map((r) => [r.getAttribute('data-manager'), r.children[1]!.textContent]));
    expect(legend).to.deep.include(['editor', 'Update']);
    expect(legend).to.deep.include(['applier', 'Apply']);
    const a = await ownersOfLine(page, 'a: edited');
    const b = await ownersOfLine(page, 'b: applied');
    const tier = await ownersOfLine(page, 'tier: web');
    expect(a).to.match(/\beditor Update\b/).and.not.match(/applier/);
    expect(b).to.match(/\bapplier Apply\b/).and.not.match(/editor/);
    expect(tier).to.match(/\bapplier Apply\b/).and.not.match(/editor/);
    expect(await ownersOfLine(page, 'name: owned'), 'a field nobody manages is unmarked').to.equal('');
    // (No named functions inside evaluate: tsx's keepNames would reference a helper the page lacks.)
    const colours = await page.evaluate((texts: string[]) =>
      texts.map((t) => getComputedStyle([...document.querySelectorAll('.owned-line')].find((l) => l.querySelector('.owned-text')?.textContent?.trim() === t)!).borderLeftColor),
    ['a: edited', 'b: applied']);
    expect(colours[0], 'one colour per manager').to.not.equal(colours[1]);
    expect(await pageText(page), 'managedFields are the legend, not YAML lines').to.not.include('fieldsV1');
    await screenshot(page, 'object-field-ownership');
  });

  it('shows the events about the object, live', async () => {
    const cm = await create('eventful', { a: '1' });
    const other = await create('quiet', { a: '1' });
    const event = (name: string, about: Created, reason: string, message: string) => ({
      metadata: { name },
      involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: about.metadata.name, uid: about.metadata.uid },
      reason,
      message,
      type: 'Warning',
      source: { component: 'browser-test' },
      firstTimestamp: new Date().toISOString(),
      lastTimestamp: new Date().toISOString(),
      count: 1,
    });
    const ev = (body: unknown) => admin().post('/api/v1/namespaces/default/events', body).then((r) => expect(r.status, r.text).to.equal(201));
    await ev(event('eventful.1', cm, 'Checked', 'first event about eventful'));
    await ev(event('quiet.1', other, 'Elsewhere', 'an event about another object'));
    const page = await ui().openConsole(`${NS}/eventful?tab=events`, { token: token() });
    await waitForText(page, 'first event about eventful');
    const row = await page.$eval('table.events tbody tr', (tr) => [...tr.children].map((td) => td.textContent));
    expect(row[0]).to.equal('Warning');
    expect(row[1]).to.equal('Checked');
    expect(row[2]).to.match(/^\d+s$/);
    expect(row[3]).to.equal('browser-test');
    await ev(event('eventful.2', cm, 'Rechecked', 'second event, after the page opened'));
    await waitForText(page, 'second event, after the page opened');
    const group = vendorGroup('events');
    const regarding = await admin().post(`/apis/${group}/v1/namespaces/default/events`, {
      metadata: { name: 'eventful.3' },
      regarding: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'eventful', uid: cm.metadata.uid },
      reason: 'Regarded',
      note: 'an events-group event regarding eventful',
      type: 'Normal',
      action: 'Check',
      reportingController: 'browser-test/regarding',
      reportingInstance: 'tester-1',
      eventTime: new Date().toISOString().replace('Z', '000Z'),
    });
    expect(regarding.status, regarding.text).to.equal(201);
    await waitForText(page, 'an events-group event regarding eventful');
    await waitForText(page, 'browser-test/regarding, tester-1');
    expect(await pageText(page)).to.not.include('an event about another object');
    await screenshot(page, 'object-events');
  });

  it('shows the owner of a dependent, and the dependents of an owner, as links', async () => {
    const parent = await create('parent', { role: 'owner' });
    await create('child', { role: 'dependent' }, { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'parent', uid: parent.metadata.uid }] });
    const page = await ui().openConsole(`${NS}/child?tab=related`, { token: token() });
    await waitForText(page, 'ConfigMap default/parent');
    expect(await page.$$eval('ul.owners a', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]))).to.deep.equal([
      ['ConfigMap default/parent', `/console${NS}/parent?tab=related`],
    ]);
    await waitForText(page, 'No dependents.');
    await page.click('ul.owners a');
    await waitInPage(page, () => location.pathname.endsWith('/configmaps/parent'), undefined, 'navigated to the owner');
    await waitForText(page, 'ConfigMap default/child');
    expect(await page.$$eval('ul.dependents a', (as) => as.map((a) => a.textContent))).to.deep.equal(['ConfigMap default/child']);
    await waitForText(page, 'No owners.');
    await screenshot(page, 'object-related');
  });
});
