/**
 * An object's history in real Chromium (issue #22 § History): the versions etcd still holds, read
 * through the API alone, as a time line with a diff between any two, and a plain statement of
 * where history ends (the object's creation, or compaction).
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { etcdctl } from '../framework/etcd.js';
import { pageText, screenshot, useConsole, waitForText } from './harness.js';

const NS = '/api/v1/namespaces/default/configmaps';

/** The time line's rows, newest first: [revision cell, changed-by cell]. */
function timeline(page: Page): Promise<string[][]> {
  return page.$$eval('tr.history-version', (rows) => rows.map((r) => [r.children[2]!.textContent ?? '', r.children[4]!.textContent ?? '']));
}

/** The diff's lines as shown (`+ …`, `- …`), without the unchanged ones. */
function changedLines(page: Page): Promise<string[]> {
  return page.$$eval('.history-diff .diff-line.diff-add, .history-diff .diff-line.diff-del', (ls) => ls.map((l) => (l.textContent ?? '').replace(/\s+/g, ' ').trim()));
}

describe('console history (issue #22 § History)', function () {
  this.timeout(60_000);
  const ui = useConsole({ users: { admin: ['system:masters'] } });

  /**
   * Creates ConfigMap `name` with `value` (field manager `creator`), then sets it to each of
   * `updates` in turn (merge patches by field managers `editor-1`, `editor-2`…).
   */
  async function withVersions(name: string, value: string, updates: string[]): Promise<string[]> {
    const admin = ui().admin;
    const created = await admin.post(`${NS}?fieldManager=creator`, { metadata: { name }, data: { colour: value, fixed: 'same' } });
    expect(created.status, created.text).to.equal(201);
    const rvs = [created.body.metadata.resourceVersion as string];
    for (const [i, v] of updates.entries()) {
      const res = await admin.patch(`${NS}/${name}?fieldManager=editor-${i + 1}`, { data: { colour: v } }, 'application/merge-patch+json');
      expect(res.status, res.text).to.equal(200);
      rvs.push(res.body.metadata.resourceVersion);
    }
    return rvs;
  }

  it('shows two earlier versions of a twice-updated ConfigMap, who wrote each, and the diff of the last change', async () => {
    const rvs = await withVersions('painted', 'red', ['green', 'blue']);
    const page = await ui().openConsole(`${NS}/painted?tab=history`, { token: ui().token('admin') });
    await waitForText(page, "History starts at the object's creation");
    expect(await timeline(page)).to.deep.equal([
      [`${rvs[2]} (current)`, 'editor-2'],
      [rvs[1], 'editor-1'],
      [rvs[0], 'creator'],
    ]);
    expect(await changedLines(page)).to.deep.equal([`- resourceVersion: "${rvs[1]}"`, `+ resourceVersion: "${rvs[2]}"`, '- colour: green', '+ colour: blue']);
    await screenshot(page, 'history-last-change');

    await page.click(`input[aria-label="diff from ${rvs[0]}"]`);
    await page.waitForFunction(() => document.querySelector('.history-diff')?.textContent?.includes('colour: red'), { timeout: 5000, polling: 50 });
    expect(await changedLines(page)).to.include.members(['- colour: red', '+ colour: blue']);
    expect(await pageText(page)).to.include(`Diff ${rvs[0]} → ${rvs[2]}`);
    await screenshot(page, 'history-first-to-current');
  });

  it('adds a version made while the page is open to the time line', async () => {
    const rvs = await withVersions('growing', 'one', ['two']);
    const page = await ui().openConsole(`${NS}/growing?tab=history`, { token: ui().token('admin') });
    await waitForText(page, `${rvs[1]} (current)`);
    const res = await ui().admin.patch(`${NS}/growing?fieldManager=later`, { data: { colour: 'three' } }, 'application/merge-patch+json');
    expect(res.status, res.text).to.equal(200);
    await waitForText(page, `${res.body.metadata.resourceVersion} (current)`);
    expect((await timeline(page)).map((r) => r[1])).to.deep.equal(['later', 'editor-1', 'creator']);
    expect(await changedLines(page)).to.include.members(['- colour: two', '+ colour: three']);
  });

  it('says where history ends when etcd compacted the earlier versions', async () => {
    const rvs = await withVersions('compacted', 'old', ['middle', 'new']);
    await etcdctl(['compact', rvs[1]!]);
    const page = await ui().openConsole(`${NS}/compacted?tab=history`, { token: ui().token('admin') });
    await waitForText(page, `Earlier versions were compacted: history starts at revision ${rvs[1]}.`);
    expect((await timeline(page)).map((r) => r[0])).to.deep.equal([`${rvs[2]} (current)`, rvs[1]]);
    expect(await changedLines(page)).to.include.members(['- colour: middle', '+ colour: new']);
    await screenshot(page, 'history-compacted');
  });
});
