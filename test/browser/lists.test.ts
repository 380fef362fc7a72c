/**
 * Live lists in real Chromium (issue #22 § Lists are live, § URLs mirror the API, § Tests): rows
 * appear, change and disappear as another client creates, updates and deletes objects, with no
 * reload; a CRD's printer columns; label selectors and paging reach the server; a user with a
 * namespaced Role sees its namespace and a clear "Not allowed" elsewhere.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { upstreamAlias, vendorGroup } from '../../lib/apis/vendor.js';
import { createCRD } from '../framework/crd.js';
import { screenshot, useConsole, waitForText } from './harness.js';

const RBAC = vendorGroup('rbac.authorization');

/** The list's rows as the text of their cells. */
function rowsOf(page: Page): Promise<string[][]> {
  return page.$$eval('.list-table tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}

/** The names of the shown rows (the `data-name` of each). */
function namesOf(page: Page): Promise<string[]> {
  return page.$$eval('.list-table tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-name') ?? ''));
}

/** Waits until `pred` holds for the rows' names (polling, up to 5 s). */
async function waitForNames(page: Page, pred: (names: string[]) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const names = await namesOf(page);
    if (pred(names)) return;
    if (Date.now() > deadline) throw new Error(`${what}: rows are ${JSON.stringify(names)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Opens a list as `token` and waits until its rows are shown and its watch is open. */
async function openLive(ui: ReturnType<typeof useConsole>, path: string, token: string): Promise<Page> {
  const page = await ui().openConsole(path, { token });
  await page.waitForSelector('.list-view[data-live="true"]', { timeout: 5000 });
  return page;
}

async function createNamespace(ui: ReturnType<typeof useConsole>, name: string, configMaps: { name: string; labels?: Record<string, string> }[] = []) {
  expect((await ui().admin.post('/api/v1/namespaces', { metadata: { name } })).status).to.equal(201);
  for (const cm of configMaps) {
    expect((await ui().admin.post(`/api/v1/namespaces/${name}/configmaps`, { metadata: cm, data: { a: '1' } })).status).to.equal(201);
  }
}

describe('console lists (issue #22 § Lists are live)', function () {
  this.timeout(60_000);
  const ui = useConsole({ users: { admin: ['system:masters'], bob: [] } });

  it('shows an object another client creates, its change and its deletion, without a reload', async () => {
    await createNamespace(ui, 'live', [{ name: 'first' }]);
    const page = await openLive(ui, '/api/v1/namespaces/live/configmaps', ui().token('admin'));
    await waitForNames(page, (n) => n.includes('first'), 'the first list');
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'no-reload'));

    expect((await ui().admin.post('/api/v1/namespaces/live/configmaps', { metadata: { name: 'second' }, data: { a: '1' } })).status).to.equal(201);
    await waitForNames(page, (n) => n.includes('second'), 'the created object');
    expect((await rowsOf(page)).find((r) => r[0] === 'second')?.[1]).to.equal('1');
    await screenshot(page, 'list-live-added');

    const patched = await ui().admin.patch('/api/v1/namespaces/live/configmaps/second', { data: { b: '2', c: '3' } }, 'application/merge-patch+json');
    expect(patched.status).to.equal(200);
    await page.waitForFunction(() => document.querySelector('.list-table tr[data-name="second"] td:nth-child(2)')?.textContent === '3', { timeout: 5000, polling: 50 });

    expect((await ui().admin.delete('/api/v1/namespaces/live/configmaps/second')).status).to.equal(200);
    await waitForNames(page, (n) => !n.includes('second') && n.includes('first'), 'the deleted object');
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).to.equal('no-reload');
    await screenshot(page, 'list-live-deleted');
  });

  it('after 410 Expired it lists again and watches on; after a watch that ends it watches on from the last version', async () => {
    await createNamespace(ui, 'relist', [{ name: 'r1' }]);
    const path = '/api/v1/namespaces/relist/configmaps';
    const page = await ui().newPage();
    const seen = { lists: 0, watches: 0 };
    const expired = { type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'too old resource version' } };
    await page.setRequestInterception(true);
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === path && u.searchParams.get('watch') === '1') {
        seen.watches++;
        // The first watch is answered 410 Expired, the second ends at once; the third goes through.
        if (seen.watches === 1) return void r.respond({ status: 200, contentType: 'application/json', body: `${JSON.stringify(expired)}\n` });
        if (seen.watches === 2) return void r.respond({ status: 200, contentType: 'application/json', body: '' });
      } else if (u.pathname === path) seen.lists++;
      void r.continue();
    });
    await page.goto(ui().consoleURL(path, { token: ui().token('admin') }), { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelector('.list-view[data-live="true"]'), { timeout: 5000, polling: 50 });
    const deadline = Date.now() + 5000;
    while (seen.watches < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(seen).to.deep.equal({ lists: 2, watches: 3 });
    expect((await ui().admin.post(`/api/v1/namespaces/relist/configmaps`, { metadata: { name: 'r2' } })).status).to.equal(201);
    await waitForNames(page, (n) => n.join() === 'r1,r2', 'the object created after the re-list');
  });

  it('across namespaces: a NAMESPACE column comes first, AGE is printed as kubectl does, and names link to the object', async () => {
    await createNamespace(ui, 'across', [{ name: 'acm' }]);
    const page = await openLive(ui, '/api/v1/configmaps', ui().token('admin'));
    await waitForNames(page, (n) => n.includes('acm'), 'the list across namespaces');
    const headers = await page.$$eval('.list-table th', (ths) => ths.map((th) => th.textContent));
    expect(headers).to.deep.equal(['NAMESPACE', 'NAME', 'DATA', 'AGE']);
    const row = (await rowsOf(page)).find((r) => r[1] === 'acm')!;
    expect(row[0]).to.equal('across');
    expect(row[3]).to.match(/^\d+s$/);
    const href = await page.$eval('.list-table tr[data-name="acm"] a', (a) => a.getAttribute('href'));
    expect(href).to.equal('/console/api/v1/namespaces/across/configmaps/acm');
    // AGE keeps counting without a reload.
    await page.waitForFunction((was: string) => document.querySelector('.list-table tr[data-name="acm"] td:nth-child(4)')?.textContent !== was, { timeout: 5000, polling: 100 }, row[3]!);
  });

  it("shows a CRD's additionalPrinterColumns as the columns", async () => {
    await createCRD(ui().admin, {
      apiVersion: `${vendorGroup('apiextensions')}/v1`,
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.console.example.com' },
      spec: {
        group: 'console.example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' } } } } } },
            additionalPrinterColumns: [
              { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
              { name: 'Paint Color', type: 'string', jsonPath: '.spec.color' },
              { name: 'Note', type: 'string', jsonPath: '.spec.color', priority: 1 },
              { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
            ],
          },
        ],
      },
    });
    const made = await ui().admin.post('/apis/console.example.com/v1/namespaces/default/gadgets', { apiVersion: 'console.example.com/v1', kind: 'Gadget', metadata: { name: 'g1' }, spec: { size: 7, color: 'teal' } });
    expect(made.status).to.equal(201);
    const page = await openLive(ui, '/apis/console.example.com/v1/namespaces/default/gadgets', ui().token('admin'));
    await waitForNames(page, (n) => n.includes('g1'), 'the custom object');
    expect(await page.$$eval('.list-table th', (ths) => ths.map((th) => th.textContent))).to.deep.equal(['NAME', 'SIZE', 'PAINT COLOR', 'AGE']);
    expect((await rowsOf(page))[0]!.slice(0, 3)).to.deep.equal(['g1', '7', 'teal']);
    await screenshot(page, 'list-crd-columns');
    // Columns of priority above 0 only with "wide", as `kubectl get -o wide`.
    await page.click('.list-filters input[name=wide]');
    await page.click('.list-filters button[type=submit]');
    await page.waitForFunction(() => [...document.querySelectorAll('.list-table th')].some((th) => th.textContent === 'NOTE'), { timeout: 5000, polling: 50 });
    expect(new URL(page.url()).searchParams.get('output')).to.equal('wide');
  });

  it('sends the label selector to the server and shows only the matching rows', async () => {
    await createNamespace(ui, 'labels', [{ name: 'web-1', labels: { app: 'web' } }, { name: 'db-1', labels: { app: 'db' } }, { name: 'web-2', labels: { app: 'web' } }]);
    const page = await openLive(ui, '/api/v1/namespaces/labels/configmaps', ui().token('admin'));
    await waitForNames(page, (n) => n.length === 3, 'the unfiltered list');
    const asked: string[] = [];
    page.on('request', (r) => asked.push(r.url()));
    await page.keyboard.press('l');
    await page.keyboard.type('app=web');
    await page.keyboard.press('Enter');
    await waitForNames(page, (n) => n.join() === 'web-1,web-2', 'the filtered list');
    expect(new URL(page.url()).searchParams.get('labelSelector')).to.equal('app=web');
    const listCall = asked.map((u) => new URL(u)).find((u) => u.pathname === '/api/v1/namespaces/labels/configmaps' && !u.searchParams.has('watch'));
    expect(listCall?.searchParams.get('labelSelector')).to.equal('app=web');
    // The watch is filtered by the server too: a non-matching object never shows.
    await ui().admin.post('/api/v1/namespaces/labels/configmaps', { metadata: { name: 'db-2', labels: { app: 'db' } } });
    await ui().admin.post('/api/v1/namespaces/labels/configmaps', { metadata: { name: 'web-3', labels: { app: 'web' } } });
    await waitForNames(page, (n) => n.join() === 'web-1,web-2,web-3', 'the filtered live list');
    await screenshot(page, 'list-label-selector');
  });

  it('sends the field selector to the server and shows only the matching rows', async () => {
    await createNamespace(ui, 'fields', [{ name: 'f-1' }, { name: 'f-2' }]);
    const page = await openLive(ui, '/api/v1/namespaces/fields/configmaps?fieldSelector=metadata.name%3Df-2', ui().token('admin'));
    await waitForNames(page, (n) => n.join() === 'f-2', 'the list filtered by field');
    expect(await page.$eval('#list-field-selector', (i) => (i as HTMLInputElement).value)).to.equal('metadata.name=f-2');
  });

  it("shows the server's error for a bad selector", async () => {
    const page = await ui().openConsole('/api/v1/namespaces/default/configmaps?labelSelector=a%3D%3D%3D', { token: ui().token('admin') });
    await waitForText(page, 'unable to parse requirement');
  });

  it('pages with limit and continue: "More" appends the next page', async () => {
    await createNamespace(ui, 'paging', ['p1', 'p2', 'p3', 'p4', 'p5'].map((name) => ({ name })));
    const page = await openLive(ui, '/api/v1/namespaces/paging/configmaps?limit=2', ui().token('admin'));
    await waitForNames(page, (n) => n.join() === 'p1,p2', 'the first page');
    await page.click('.list-more');
    await waitForNames(page, (n) => n.join() === 'p1,p2,p3,p4', 'two pages');
    await screenshot(page, 'list-paging');
    await page.click('.list-more');
    await waitForNames(page, (n) => n.join() === 'p1,p2,p3,p4,p5', 'every page');
    expect(await page.$('.list-more')).to.equal(null);
  });

  it('a user with a namespaced Role sees its namespace and "Not allowed", naming the verb and resource, elsewhere', async () => {
    await createNamespace(ui, 'team-a', [{ name: 'a-config' }]);
    await createNamespace(ui, 'team-b', [{ name: 'b-config' }]);
    const role = { metadata: { name: 'cm-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }] };
    expect((await ui().admin.post(`/apis/${RBAC}/v1/namespaces/team-a/roles`, role)).status).to.equal(201);
    const binding = { metadata: { name: 'bob-reads' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'cm-reader' }, subjects: [{ apiGroup: RBAC, kind: 'User', name: 'bob' }] };
    expect((await ui().admin.post(`/apis/${RBAC}/v1/namespaces/team-a/rolebindings`, binding)).status).to.equal(201);

    const page = await openLive(ui, '/api/v1/namespaces/team-a/configmaps', ui().token('bob'));
    await waitForNames(page, (n) => n.includes('a-config'), "bob's namespace");
    await screenshot(page, 'list-role-allowed');

    await page.goto(ui().consoleURL('/api/v1/namespaces/team-b/configmaps'), { waitUntil: 'load' });
    await page.waitForSelector('.error.forbidden', { timeout: 5000 });
    const text = await page.$eval('.error.forbidden', (e) => (e as HTMLElement).innerText);
    expect(text).to.match(/^Not allowed\./);
    expect(text).to.include('cannot list resource "configmaps"');
    expect(text).to.include('"team-b"');
    expect(await page.$('.list-table')).to.equal(null);
    await screenshot(page, 'list-role-forbidden');
  });

  it('a user who may list but not watch sees the rows and "Not allowed" naming the watch verb', async () => {
    await createNamespace(ui, 'team-c', [{ name: 'c-config' }]);
    const role = { metadata: { name: 'cm-lister' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }] };
    expect((await ui().admin.post(`/apis/${RBAC}/v1/namespaces/team-c/roles`, role)).status).to.equal(201);
    const binding = { metadata: { name: 'bob-lists' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'cm-lister' }, subjects: [{ apiGroup: RBAC, kind: 'User', name: 'bob' }] };
    expect((await ui().admin.post(`/apis/${RBAC}/v1/namespaces/team-c/rolebindings`, binding)).status).to.equal(201);
    const page = await ui().openConsole('/api/v1/namespaces/team-c/configmaps', { token: ui().token('bob') });
    await waitForNames(page, (n) => n.includes('c-config'), 'the listed rows');
    await page.waitForSelector('.error.forbidden', { timeout: 5000 });
    expect(await page.$eval('.error.forbidden', (e) => (e as HTMLElement).innerText)).to.include('cannot watch resource "configmaps"');
    expect(await page.$eval('.list-view', (e) => e.getAttribute('data-live'))).to.equal('false');
  });
});

describe('console navigation (issue #22 § URLs mirror the API)', function () {
  this.timeout(60_000);
  const ui = useConsole({ users: { admin: ['system:masters'] } });

  before(async () => {
    await createNamespace(ui, 'nav-a', [{ name: 'nav-cm' }]);
    await createCRD(ui().admin, {
      apiVersion: `${vendorGroup('apiextensions')}/v1`,
      kind: 'CustomResourceDefinition',
      metadata: { name: 'sprockets.nav.example.com' },
      spec: {
        group: 'nav.example.com',
        scope: 'Cluster',
        names: { plural: 'sprockets', singular: 'sprocket', kind: 'Sprocket', shortNames: ['spr'] },
        versions: [
          { name: 'v1beta1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
        ],
      },
    });
  });

  it('the sidebar lists every group from discovery, core first, CRDs included, linking each list at its preferred version', async () => {
    const page = await ui().openConsole('/', { token: ui().token('admin') });
    await page.waitForSelector('.nav-group', { timeout: 5000 });
    const groups = await page.$$eval('.nav-group h3', (hs) => hs.map((h) => h.textContent));
    expect(groups[0]).to.equal('core');
    expect(groups).to.include('nav.example.com');
    expect(groups).to.include(vendorGroup('rbac.authorization'));
    // The upstream-spelled alias of a group (served with --upstream-aliases) is shown once, under the server's spelling.
    expect(groups).not.to.include(upstreamAlias(vendorGroup('rbac.authorization'))!);
    expect(new Set(groups).size).to.equal(groups.length);
    const hrefs = await page.$$eval('.nav-group a', (as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).to.include('/console/apis/nav.example.com/v1/sprockets');
    expect(hrefs).not.to.include('/console/apis/nav.example.com/v1beta1/sprockets');
    expect(hrefs).to.include('/console/api/v1/namespaces/default/configmaps');
    await screenshot(page, 'nav-sidebar');
  });

  it('reads discovery once per page load: following links does not ask again', async () => {
    const page = await ui().openConsole('/', { token: ui().token('admin') });
    await page.waitForSelector('.nav-group', { timeout: 5000 });
    const discovery: string[] = [];
    page.on('request', (r) => {
      const p = new URL(r.url()).pathname;
      if (/^\/api(\/v1)?$/.test(p) || /^\/apis(\/[^/]+\/[^/]+)?$/.test(p)) discovery.push(p);
    });
    for (const href of ['/console/api/v1/namespaces/default/configmaps', '/console/apis/nav.example.com/v1/sprockets', '/console/api/v1/namespaces']) {
      await page.click(`.nav-group a[href="${href}"]`);
      await page.waitForSelector('.list-view[data-live="true"]', { timeout: 5000 });
    }
    expect(discovery).to.deep.equal([]);
  });

  it('`/` searches kinds (Enter opens the best match, by short name too) and `n` chooses the namespace, kept in the API path', async () => {
    const page = await ui().openConsole('/', { token: ui().token('admin') });
    await page.waitForSelector('.nav-group', { timeout: 5000 });
    await page.keyboard.press('/');
    await page.keyboard.type('cm');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.list-view[data-live="true"]', { timeout: 5000 });
    expect(new URL(page.url()).pathname).to.equal('/console/api/v1/namespaces/default/configmaps');

    await page.keyboard.press('n');
    expect(await page.evaluate(() => document.activeElement?.id)).to.equal('nav-namespace');
    await page.select('#nav-namespace', 'nav-a');
    await waitForNames(page, (n) => n.join() === 'nav-cm', 'the list in nav-a');
    expect(new URL(page.url()).pathname).to.equal('/console/api/v1/namespaces/nav-a/configmaps');
    await page.select('#nav-namespace', '');
    await page.waitForSelector('.list-table th', { timeout: 5000 });
    expect(new URL(page.url()).pathname).to.equal('/console/api/v1/configmaps');
    await waitForText(page, 'NAMESPACE');

    await page.keyboard.press('Escape');
    await page.keyboard.press('/');
    await page.keyboard.type('spr');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => location.pathname === '/console/apis/nav.example.com/v1/sprockets', { timeout: 5000, polling: 50 });

    await page.keyboard.press('?');
    await waitForText(page, 'Keyboard shortcuts');
    await screenshot(page, 'nav-shortcuts');
  });
});
