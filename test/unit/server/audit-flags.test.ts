import { expect } from 'chai';
import { FlagError, formatHelp, parseServerFlags } from '../../../lib/server/options/flags.js';

describe('server/options/audit-flags (upstream server/options/audit.go)', () => {
  it('defaults as upstream: log blocking, webhook batching 10000/400/30s, 10 QPS burst 15, 10s backoff', () => {
    const a = parseServerFlags([]).audit;
    expect(a.policyFile).to.equal('');
    expect(a.log).to.deep.include({ path: '', format: 'json', maxAge: 0, maxBackups: 0, maxSize: 0, compress: false, version: 'audit.orch.io/v1' });
    expect(a.log.batch.mode).to.equal('blocking');
    expect(a.webhook.batch).to.deep.equal({ mode: 'batch', bufferSize: 10000, maxBatchSize: 400, maxBatchWaitMs: 30000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15 });
    expect(a.webhook.initialBackoffMs).to.equal(10000);
    expect(a.webhook.truncate).to.deep.equal({ enabled: false, maxBatchSize: 10485760, maxEventSize: 102400 });
  });

  it('parses every backend flag', () => {
    const a = parseServerFlags([
      '--audit-policy-file=/p.yaml',
      '--audit-log-path=-',
      '--audit-log-maxsize=5',
      '--audit-log-maxbackup=2',
      '--audit-log-maxage=7',
      '--audit-log-compress',
      '--audit-log-format=legacy',
      '--audit-log-mode=batch',
      '--audit-log-batch-max-wait=1s',
      '--audit-log-truncate-enabled=true',
      '--audit-webhook-config-file=/w.kubeconfig',
      '--audit-webhook-batch-throttle-qps=2.5',
      '--audit-webhook-initial-backoff=2s',
      '--audit-webhook-version=audit.k8s.io/v1',
    ]).audit;
    expect(a.policyFile).to.equal('/p.yaml');
    expect(a.log).to.deep.include({ path: '-', maxSize: 5, maxBackups: 2, maxAge: 7, compress: true, format: 'legacy' });
    expect(a.log.batch).to.deep.include({ mode: 'batch', maxBatchWaitMs: 1000 });
    expect(a.log.truncate.enabled).to.equal(true);
    expect(a.webhook).to.deep.include({ configFile: '/w.kubeconfig', initialBackoffMs: 2000, version: 'audit.k8s.io/v1' });
    expect(a.webhook.batch.throttleQPS).to.equal(2.5);
  });

  const invalid: Array<[string[], string]> = [
    [['--audit-log-path=/a', '--audit-log-mode=sometimes'], 'invalid audit log mode sometimes, allowed modes are "batch,blocking,blocking-strict"'],
    [['--audit-log-path=/a', '--audit-log-format=xml'], 'invalid audit log format xml, allowed formats are "legacy,json"'],
    [['--audit-log-path=/a', '--audit-log-maxage=-1'], "--audit-log-maxage -1 can't be a negative number"],
    [['--audit-webhook-config-file=/w', '--audit-webhook-batch-buffer-size=0'], 'invalid audit batch webhook buffer size 0, must be a positive number'],
    [['--audit-webhook-config-file=/w', '--audit-webhook-batch-throttle-qps=0'], 'invalid audit batch webhook throttle QPS 0, must be a positive number'],
    [['--audit-webhook-config-file=/w', '--audit-webhook-truncate-max-batch-size=10'], 'invalid audit truncate webhook max batch size 10, must be greater than max event size (102400)'],
    [['--audit-webhook-batch-throttle-qps=fast'], 'strconv.ParseFloat: parsing "fast": invalid syntax'],
  ];
  for (const [args, message] of invalid) {
    it(`rejects ${args.join(' ')}`, () => {
      expect(() => parseServerFlags(args)).to.throw(FlagError, message);
    });
  }

  it('prints the Auditing section with upstream help texts', () => {
    const help = formatHelp();
    expect(help).to.match(/Auditing flags:/);
    expect(help).to.match(/--audit-log-path string +If set, all requests coming to the apiserver will be logged to this file\. {2}'-' means standard out\. \(default ""\)\n/);
    expect(help).to.match(/--audit-webhook-mode string +Strategy for sending audit events\. .* Known modes are batch,blocking,blocking-strict\. \(default "batch"\)\n/);
    expect(help).to.match(/--audit-webhook-initial-backoff duration +The amount of time to wait before retrying the first failed request\. \(default 10s\)\n/);
  });
});
