import { expect } from 'chai';
import { FlagError, formatHelp, parseServerFlags } from '../../../../lib/server/options/flags.js';
import { defaultLeaderElectionOptions, validateLeaderElectionOptions } from '../../../../lib/server/options/leader-election-flags.js';
import { newServerIdentity } from '../../../../lib/server/identity.js';

describe('leader-election flags (issue #16 item 1)', () => {
  it("upstream's defaults: elect on, 15s / 10s / 2s, the leases lock orch-controller-manager in orch-system", () => {
    expect(parseServerFlags([]).leaderElection).to.deep.equal({
      leaderElect: true,
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      resourceLock: 'leases',
      resourceName: 'orch-controller-manager',
      resourceNamespace: 'orch-system',
    });
  });

  it('every flag sets its option', () => {
    const o = parseServerFlags([
      '--leader-elect=false',
      '--leader-elect-lease-duration=30s',
      '--leader-elect-renew-deadline=20s',
      '--leader-elect-retry-period=5s',
      '--leader-elect-resource-name=mine',
      '--leader-elect-resource-namespace=elsewhere',
    ]).leaderElection;
    expect(o).to.deep.equal({ leaderElect: false, leaseDurationMs: 30_000, renewDeadlineMs: 20_000, retryPeriodMs: 5_000, resourceLock: 'leases', resourceName: 'mine', resourceNamespace: 'elsewhere' });
  });

  const rejected: Array<[string[], string]> = [
    [['--leader-elect-lease-duration=10s'], 'generic.leaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater than RenewDeadline'],
    [['--leader-elect-resource-lock=endpoints'], 'Invalid lock-type endpoints'],
    [['--leader-elect-resource-lock='], 'generic.leaderElection.resourceLock: Invalid value: "": resourceLock is required'],
    [['--leader-elect-resource-name='], 'generic.leaderElection.resourceName: Invalid value: "": resourceName is required'],
    [['--leader-elect-retry-period=9s'], 'renewDeadline must be greater than retryPeriod*JitterFactor'],
    [['--leader-elect-retry-period=0s'], 'generic.leaderElection.retryPeriod: Invalid value: 0s: must be greater than zero'],
    [['--leader-elect-lease-duration=later'], 'invalid argument "later" for "--leader-elect-lease-duration" flag: time: invalid duration "later"'],
  ];
  for (const [argv, message] of rejected) {
    it(`${argv.join(' ')} → ${message}`, () => {
      expect(() => parseServerFlags(argv)).to.throw(FlagError).with.property('message', message);
    });
  }

  it('nothing is checked when --leader-elect=false', () => {
    expect(validateLeaderElectionOptions({ ...defaultLeaderElectionOptions(), leaderElect: false, leaseDurationMs: 0, resourceLock: 'x' })).to.deep.equal([]);
  });

  it('--help lists the flags with their defaults under "Leader election flags"', () => {
    const help = formatHelp();
    expect(help).to.include('Leader election flags:');
    expect(help).to.match(/--leader-elect {2,}Start a leader election client and gain leadership before executing the main loop\. Enable this when running replicated components for high availability\. \(default true\)/);
    expect(help).to.match(/--leader-elect-resource-lock string {2,}The type of resource object that is used for locking during leader election\. Supported options are 'leases'\. \(default "leases"\)/);
    expect(help).to.match(/--leader-elect-renew-deadline duration {2,}.* This must be less than the lease duration\. .*\(default 10s\)/);
  });
});

describe('server identity (issue #16 item 1)', () => {
  it('orch-apiserver-<26 base32 characters>, its sha256 hash, and <hostname>_<uuid> for elections', () => {
    const id = newServerIdentity('host-a', '00000000-0000-0000-0000-000000000001');
    expect(id.id).to.match(/^orch-apiserver-[a-z2-7]{26}$/);
    expect(id.idHash).to.match(/^sha256:[0-9a-f]{64}$/);
    expect(id.electionID).to.equal('host-a_00000000-0000-0000-0000-000000000001');
    expect(newServerIdentity('host-a', '00000000-0000-0000-0000-000000000001')).to.deep.equal(id);
    expect(newServerIdentity('host-a', '00000000-0000-0000-0000-000000000002').id).to.not.equal(id.id);
  });
});
