import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'puppeteer-core';
import type { TestClient } from '../framework/client.js';
import { screenshot, useConsole, waitForText } from './harness.js';

/** Waits until `client` may GET `path` (RBAC's informers have seen a new binding). */
async function waitAllowed(client: TestClient, path: string): Promise<void> {
  for (let i = 0; ; i++) {
    const res = await client.get(path);
    if (res.status === 200) return;
    if (i > 100) throw new Error(`${path} still ${res.status}`);
    await sleep(50);
  }
}

/** The rows of the who-can table once it shows `verb`: `kind/name` of each, and whether confirmed. */
async function whoCanRows(page: Page, verb: string): Promise<{ who: string; confirmed: boolean }[]> {
  await page.waitForSelector(`.who-can-table[data-verb="${verb}"]`);
  return page.$$eval('.who-can-table tbody tr', (rows) =>
    rows.map((r) => ({ who: `${r.getAttribute('data-kind')}/${r.getAttribute('data-name')}`, confirmed: r.classList.contains('who-can-confirmed') })),
  );
}

describe('console: who may (issue #22 § Who may)', function () {
  this.timeout(60_000);
  const ui = useConsole({ users: { admin: ['system:masters'], alice: [], carol: [], dave: [] } });
  let rbac: string;

  before(async function () {
    this.timeout(30_000);
    const { admin } = ui();
    rbac = `/apis/rbac.authorization.${(await admin.get('/console/config.json')).body.groupDomain}/v1`;
    const created = async (path: string, body: unknown) => {
      const res = await admin.post(path, body);
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    };
    await created('/api/v1/namespaces', { metadata: { name: 'team-a' } });
    await created('/api/v1/namespaces/team-a/configmaps', { metadata: { name: 'shared' }, data: { k: 'v' } });
    await created(`${rbac}/namespaces/team-a/roles`, {
      metadata: { name: 'cm-reader' },
      rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'] }],
    });
    await created(`${rbac}/namespaces/team-a/rolebindings`, {
      metadata: { name: 'alice-reads' },
      roleRef: { apiGroup: rbac.split('/')[2], kind: 'Role', name: 'cm-reader' },
      subjects: [{ kind: 'User', name: 'alice', apiGroup: rbac.split('/')[2] }],
    });
    // dave may read the Roles and RoleBindings of team-a and make SubjectAccessReviews, but not read ClusterRoles.
    await created(`${rbac}/namespaces/team-a/roles`, {
      metadata: { name: 'rbac-reader' },
      rules: [{ verbs: ['get', 'list'], apiGroups: [rbac.split('/')[2]!], resources: ['roles', 'rolebindings'] }, { verbs: ['get', 'watch'], apiGroups: [''], resources: ['configmaps'] }],
    });
    await created(`${rbac}/namespaces/team-a/rolebindings`, {
      metadata: { name: 'dave-reads-rbac' },
      roleRef: { apiGroup: rbac.split('/')[2], kind: 'Role', name: 'rbac-reader' },
      subjects: [{ kind: 'User', name: 'dave', apiGroup: rbac.split('/')[2] }],
    });
    const authz = `authorization.${(await admin.get('/console/config.json')).body.groupDomain}`;
    await created(`${rbac}/clusterroles`, { metadata: { name: 'access-reviewer' }, rules: [{ verbs: ['create'], apiGroups: [authz], resources: ['subjectaccessreviews'] }] });
    await created(`${rbac}/clusterrolebindings`, {
      metadata: { name: 'dave-reviews' },
      roleRef: { apiGroup: rbac.split('/')[2], kind: 'ClusterRole', name: 'access-reviewer' },
      subjects: [{ kind: 'User', name: 'dave', apiGroup: rbac.split('/')[2] }],
    });
    await waitAllowed(ui().clientOf('alice'), '/api/v1/namespaces/team-a/configmaps/shared');
    await waitAllowed(ui().clientOf('dave'), `${rbac}/namespaces/team-a/rolebindings`);
  });

  it('shows a user with a namespaced Role its rules in that namespace, and not elsewhere', async () => {
    const page = await ui().openConsole('/access?namespace=team-a', { token: ui().token('alice') });
    page.setDefaultTimeout(10_000);
    await page.waitForSelector('.access-resource-rules');
    const rows = await page.$$eval('.access-resource-rules tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).to.deep.include(['configmaps', '""', '(any)', 'get, list, watch']);
    await waitForText(page, 'What alice may do');
    await screenshot(page, 'access-team-a');

    await page.$eval('#access-namespace', (el) => {
      const input = el as HTMLInputElement;
      input.value = 'default';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.click('.access-namespace button[type=submit]');
    await page.waitForFunction(() => location.search === '?namespace=default' && !!document.querySelector('.access-rules'));
    const resources = await page.$$eval('.access-resource-rules tbody tr td:first-child', (tds) => tds.map((td) => td.textContent));
    expect(resources).to.not.include('configmaps');
    expect(resources).to.include('selfsubjectaccessreviews, selfsubjectrulesreviews');
    await screenshot(page, 'access-default');
  });

  it('lists who can get a ConfigMap: a user bound by a RoleBinding, not an unbound one; and not for delete', async () => {
    const page = await ui().openConsole('/api/v1/namespaces/team-a/configmaps/shared?tab=who-can', { token: ui().token('admin') });
    page.setDefaultTimeout(10_000);
    const rows = await whoCanRows(page, 'get');
    expect(rows).to.deep.include({ who: 'User/alice', confirmed: true });
    expect(rows).to.deep.include({ who: 'Group/system:masters', confirmed: true });
    expect(rows.map((r) => r.who)).to.not.include('User/carol');
    expect(await page.$eval('tr[data-name="alice"]', (tr) => tr.textContent)).to.include('RoleBinding team-a/alice-reads → Role cm-reader');
    await screenshot(page, 'who-can-get');

    await page.select('.who-can-verb', 'delete');
    const after = await whoCanRows(page, 'delete');
    expect(after.map((r) => r.who)).to.include('Group/system:masters').and.not.include('User/alice');
  });

  it('says the list is partial when the user may not read cluster roles, and still finds what it can', async () => {
    const page = await ui().openConsole('/api/v1/namespaces/team-a/configmaps/shared?tab=who-can', { token: ui().token('dave') });
    page.setDefaultTimeout(10_000);
    await waitForText(page, 'Not allowed to read cluster roles — the list is partial.');
    await waitForText(page, 'Not allowed to read cluster role bindings — the list is partial.');
    const rows = await whoCanRows(page, 'get');
    expect(rows).to.deep.include({ who: 'User/alice', confirmed: true });
    expect(rows.map((r) => r.who)).to.not.include('Group/system:masters');
    await screenshot(page, 'who-can-partial');
  });
});
