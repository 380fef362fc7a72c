import { expect } from 'chai';
import { screenshot, useConsole, waitForText } from './harness.js';

describe('console: health (issue #22 § Health)', function () {
  this.timeout(60_000);
  const ui = useConsole({ users: { admin: ['system:masters'], alice: [] } });

  it('lists the readyz checks and draws the plots from /metrics', async () => {
    const page = await ui().openConsole('/health', { token: ui().token('admin') });
    page.setDefaultTimeout(15_000);
    await page.waitForSelector('.health-checks');
    const checks = await page.$$eval('.health-checks tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(checks).to.deep.include(['etcd', '[+] ok']);
    expect(checks).to.deep.include(['poststarthook/rbac/bootstrap-roles', '[+] ok']);
    await waitForText(page, 'ready');

    // Two polls give the first point; each plot is a uPlot canvas with a size.
    await page.waitForFunction(() => document.querySelectorAll('.health-plot canvas').length === 5);
    const plots = await page.$$eval('.health-plot', (els) =>
      els.map((el) => {
        const c = el.querySelector('canvas')!;
        return { title: el.getAttribute('data-title'), width: c.width, height: c.height };
      }),
    );
    expect(plots.map((p) => p.title)).to.deep.equal(['Requests per second by verb', 'Mean latency by verb', 'Watches', 'Watch cache size', 'Flow control']);
    for (const p of plots) expect(p.width * p.height, p.title!).to.be.greaterThan(0);
    // The GET line (the first series, #2759c7) is drawn: the page's own GETs of /readyz and /metrics.
    await page.waitForFunction(() => {
      const c = document.querySelector('.health-plot[data-title="Requests per second by verb"] canvas') as HTMLCanvasElement;
      const px = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i]! - 0x27) + Math.abs(px[i + 1]! - 0x59) + Math.abs(px[i + 2]! - 0xc7) < 40) return true;
      return false;
    });
    await page.waitForFunction(() => Number(document.querySelector('.health-plot')?.getAttribute('data-points')) >= 3);
    await screenshot(page, 'health');
  });

  it('shows /metrics as not allowed to a user without the permission, the checks still listed', async () => {
    const page = await ui().openConsole('/health', { token: ui().token('alice') });
    await waitForText(page, 'Not allowed.');
    await waitForText(page, 'cannot get path "/metrics"');
    expect(await page.$$('.health-checks tbody tr')).to.have.length.greaterThan(3);
    expect(await page.$$('.health-plot')).to.have.length(0);
    await screenshot(page, 'health-metrics-forbidden');
  });
});
