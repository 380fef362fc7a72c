import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { screenshot, useConsole, waitForText } from './harness.js';

const NS = '/api/v1/namespaces/default/configmaps';
const APPLY = 'application/apply-patch+yaml';

/** Replaces the Edit tab's text as a person typing would (an `input` event), then clicks `button`. */
async function editAndClick(page: Page, yaml: string, button: '.edit-preview' | '.edit-save'): Promise<void> {
  await page.waitForSelector('.edit-yaml');
  await page.$eval(
    '.edit-yaml',
    (el, text) => {
      const ta = el as HTMLTextAreaElement;
      ta.value = text;
      ta.dispatchEvent(new Event('input', { bubbles: true }));
    },
    yaml,
  );
  await page.waitForSelector(`${button}:not([disabled])`);
  await page.click(button);
}

/** Opens the Edit tab of the object at `apiPath` as the admin; waits fail after 10 s. */
async function openEdit(fixture: ReturnType<ReturnType<typeof useConsole>>, apiPath: string): Promise<Page> {
  const page = await fixture.openConsole(`${apiPath}?tab=edit`, { token: fixture.token('admin') });
  page.setDefaultTimeout(10_000);
  await page.waitForSelector('.edit-yaml');
  return page;
}

const cmYaml = (name: string, data: Record<string, string>, extra = '') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: "${v}"\n`)
    .join('')}${extra}`;

describe('console: edit safely (issue #22 § Edit safely)', function () {
  this.timeout(60_000);
  const ui = useConsole({ users: { admin: ['system:masters'] } });

  async function fieldManager(): Promise<string> {
    const res = await ui().admin.get('/console/config.json');
    return res.body.fieldManager as string;
  }

  /** A server-side apply of `yaml` by the admin client under `manager`. */
  const apply = (path: string, yaml: string, manager: string) =>
    ui().admin.request('PATCH', `${path}?fieldManager=${encodeURIComponent(manager)}`, { raw: yaml, contentType: APPLY });

  it('previews a Strict apply as a dry run: a duplicate or unknown field is shown as the error, then the diff; nothing is written', async () => {
    const created = await ui().admin.post(`${NS}?fieldManager=setup`, { metadata: { name: 'edit-preview' }, data: { a: '1' } });
    expect(created.status).to.equal(201);
    const page = await openEdit(ui(), `${NS}/edit-preview`);

    // The repeated key keeps the live value: a conflict with the creator would be told first, as upstream.
    await editAndClick(page, `${cmYaml('edit-preview', { a: '1' })}  a: "1"\n`, '.edit-preview');
    await waitForText(page, 'line 8: key "a" already set in map');
    expect(await page.$eval('.edit-outcome .error', (e) => e.textContent)).to.include('error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:');
    expect(await page.$('.edit-outcome .diff')).to.equal(null);
    await editAndClick(page, cmYaml('edit-preview', { a: '2' }, 'bogus: 1\n'), '.edit-preview');
    await waitForText(page, '.bogus: field not declared in schema');
    expect(await page.$eval('.edit-outcome .error', (e) => e.textContent)).to.include('failed to create typed patch object (default/edit-preview; /v1, Kind=ConfigMap)');
    await screenshot(page, 'edit-preview-strict-error');

    await editAndClick(page, cmYaml('edit-preview', { a: '1', b: 'new' }, 'immutable: false\n'), '.edit-preview');
    await page.waitForSelector('.diff .diff-add');
    const added = await page.$$eval('.diff .diff-add', (ls) => ls.map((l) => l.textContent));
    expect(added).to.include.members(['+   b: new', '+ immutable: false']);
    expect(await page.$$eval('.diff .diff-same', (ls) => ls.map((l) => l.textContent))).to.include('    a: "1"');
    await waitForText(page, 'Dry run: nothing was written.');
    await screenshot(page, 'edit-preview-diff');

    const now = await ui().admin.get(`${NS}/edit-preview`);
    expect(now.body.metadata.resourceVersion).to.equal(created.body.metadata.resourceVersion);
    expect(now.body.data).to.deep.equal({ a: '1' });
  });

  it('shows every warning of a Strict dry run (a deprecated reclaim policy of a PersistentVolume)', async () => {
    const pv = {
      metadata: { name: 'edit-warn-pv' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/pv' }, persistentVolumeReclaimPolicy: 'Retain' },
    };
    const created = await apply('/api/v1/persistentvolumes/edit-warn-pv', JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolume', ...pv }), await fieldManager());
    expect(created.status).to.equal(201);
    const page = await openEdit(ui(), '/api/v1/persistentvolumes/edit-warn-pv');
    const text = await page.$eval('.edit-yaml', (e) => (e as HTMLTextAreaElement).value);
    expect(text).to.include('persistentVolumeReclaimPolicy: Retain').and.not.include('resourceVersion').and.not.include('managedFields');

    await editAndClick(page, text.replace('persistentVolumeReclaimPolicy: Retain', 'persistentVolumeReclaimPolicy: Recycle'), '.edit-preview');
    await page.waitForSelector('.edit-warnings .warning');
    expect(await page.$eval('.edit-warnings', (e) => e.textContent)).to.include('The Recycle reclaim policy is deprecated');
    expect(await page.$$eval('.diff .diff-add', (ls) => ls.map((l) => l.textContent))).to.include('+   persistentVolumeReclaimPolicy: Recycle');
    await screenshot(page, 'edit-preview-warning');

    const now = await ui().admin.get('/api/v1/persistentvolumes/edit-warn-pv');
    expect(now.body.metadata.resourceVersion).to.equal(created.body.metadata.resourceVersion);
  });

  it("saves with a server-side apply under the console's field manager", async () => {
    await ui().admin.post(`${NS}?fieldManager=setup`, { metadata: { name: 'edit-save' }, data: { a: '1' } });
    const page = await openEdit(ui(), `${NS}/edit-save`);
    await editAndClick(page, cmYaml('edit-save', { a: '1', b: '2' }), '.edit-save');
    await waitForText(page, 'Saved: resourceVersion');
    await screenshot(page, 'edit-saved');

    const now = await ui().admin.get(`${NS}/edit-save`);
    expect(now.body.data).to.deep.equal({ a: '1', b: '2' });
    const manager = await fieldManager();
    const entries = now.body.metadata.managedFields as { manager: string; operation: string }[];
    expect(entries.filter((e) => e.manager === manager).map((e) => e.operation)).to.deep.equal(['Apply']);
  });

  it('shows a conflict with a field of another manager as a conflict naming it, and forces on request', async () => {
    const applied = await apply(`${NS}/edit-conflict`, cmYaml('edit-conflict', { a: '1' }), 'other-tool');
    expect(applied.status).to.equal(201);
    const page = await openEdit(ui(), `${NS}/edit-conflict`);
    await editAndClick(page, cmYaml('edit-conflict', { a: '2' }), '.edit-save');
    await page.waitForSelector('.edit-conflict');
    const text = await page.$eval('.edit-conflict', (e) => e.textContent ?? '');
    expect(text).to.include('Conflict.').and.include('.data.a');
    expect(await page.$eval('.edit-conflict .conflict-manager', (e) => e.textContent)).to.equal('other-tool');
    await screenshot(page, 'edit-conflict');
    expect((await ui().admin.get(`${NS}/edit-conflict`)).body.data).to.deep.equal({ a: '1' });

    await page.click('.edit-force');
    await waitForText(page, 'Saved (forced): resourceVersion');
    const now = await ui().admin.get(`${NS}/edit-conflict`);
    expect(now.body.data).to.deep.equal({ a: '2' });
    const owners = (now.body.metadata.managedFields as { manager: string; fieldsV1: { 'f:data'?: object } }[]).filter((e) => e.fieldsV1['f:data']).map((e) => e.manager);
    expect(owners).to.deep.equal([await fieldManager()]);
  });
});
