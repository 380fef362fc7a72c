import { expect } from 'chai';
import { rateLimitedEtcdCheck } from '../../../lib/server/healthz/etcd-check.js';
import { outcome } from '../../framework/outcome.js';

/** A probe whose answers the test gives, one per call, and which counts its calls. */
function scriptedProbe() {
  const pending: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  const probe = () =>
    new Promise<void>((resolve, reject) => {
      pending.push({ resolve, reject });
    });
  return { probe, pending };
}

describe('etcd health checks: one probe per half timeout (upstream newETCD3Check)', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => (clock = 1_000));

  it('probes on the first call, answers the last probe without probing until half the timeout has passed, then probes again', async () => {
    const { probe, pending } = scriptedProbe();
    const check = rateLimitedEtcdCheck('etcd', probe, 2_000, now);
    const first = outcome(check.check());
    expect(pending).to.have.length(1);
    pending[0]!.resolve();
    expect(await first).to.equal('ok');
    clock += 999;
    expect(await outcome(check.check())).to.equal('ok');
    expect(pending).to.have.length(1);
    clock += 1;
    const third = outcome(check.check());
    expect(pending).to.have.length(2);
    pending[1]!.reject(new Error('connection refused'));
    expect(await third).to.equal('error getting data from etcd: connection refused');
    clock += 500;
    expect(await outcome(check.check())).to.equal('error getting data from etcd: connection refused');
    expect(pending).to.have.length(2);
  });

  it('fails a probe etcd does not answer within the timeout', async () => {
    const { probe } = scriptedProbe();
    const check = rateLimitedEtcdCheck('etcd-readiness', probe, 40, now);
    expect(await outcome(check.check())).to.equal('error getting data from etcd: etcd did not answer within 0.04s');
  });

  it('makes a call that comes while the very first probe is out wait for that probe', async () => {
    const { probe, pending } = scriptedProbe();
    const check = rateLimitedEtcdCheck('etcd', probe, 2_000, now);
    const first = outcome(check.check());
    clock += 10;
    const second = outcome(check.check());
    expect(pending).to.have.length(1);
    pending[0]!.reject(new Error('no leader'));
    expect(await Promise.all([first, second])).to.deep.equal(['error getting data from etcd: no leader', 'error getting data from etcd: no leader']);
  });

  it('keeps the answer of the probe sent last when an older probe answers after it', async () => {
    const { probe, pending } = scriptedProbe();
    const check = rateLimitedEtcdCheck('etcd', probe, 10_000, now);
    const older = outcome(check.check());
    pending[0]!.resolve();
    await older;
    clock += 5_000;
    const slow = outcome(check.check());
    clock += 5_000;
    const fast = outcome(check.check());
    expect(pending).to.have.length(3);
    pending[2]!.reject(new Error('timed out'));
    expect(await fast).to.equal('error getting data from etcd: timed out');
    pending[1]!.resolve();
    expect(await slow).to.equal('ok');
    clock += 1;
    expect(await outcome(check.check())).to.equal('error getting data from etcd: timed out');
    expect(pending).to.have.length(3);
  });
});
