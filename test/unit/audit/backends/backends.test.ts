import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { BufferedBackend } from '../../../../lib/audit/buffered.js';
import { LogBackend } from '../../../../lib/audit/log-backend.js';
import { AuditMetrics } from '../../../../lib/audit/metrics.js';
import { RotatingFile, backupName, backupTime } from '../../../../lib/audit/rotating-file.js';
import { TruncateBackend } from '../../../../lib/audit/truncate.js';
import type { AuditBackend, AuditEvent } from '../../../../lib/audit/types.js';
import { StabilityRegistry } from '../../../../lib/metrics/registry.js';
import { sampleEvent } from './event.test.js';

class Recorder implements AuditBackend {
  readonly name = 'recorder';
  batches: AuditEvent[][] = [];
  processEvents(events: AuditEvent[]): boolean {
    this.batches.push(events);
    return true;
  }
  async shutdown(): Promise<void> {}
}

function metricsWithRegistry() {
  const registry = new StabilityRegistry();
  return { metrics: new AuditMetrics(registry), registry };
}

async function counter(registry: StabilityRegistry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const m = (await registry.registry.getMetricsAsJSON()).find((x) => x.name === name);
  const v = (m?.values ?? []).find((x) => Object.entries(labels).every(([k, l]) => x.labels[k] === l));
  return v ? Number(v.value) : 0;
}

describe('audit backends', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'audit-backend-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('truncate: drops objects and annotates, drops what stays too large, splits batches', async () => {
    const rec = new Recorder();
    const { metrics, registry } = metricsWithRegistry();
    const small = sampleEvent();
    const size = Buffer.byteLength(JSON.stringify(small));
    const t = new TruncateBackend(rec, { maxEventSize: size + 60, maxBatchSize: 2 * size + 130 }, metrics);
    const big = sampleEvent({ requestObject: { data: 'x'.repeat(500) } });
    const huge = sampleEvent({ requestURI: `/${'y'.repeat(500)}` });
    t.processEvents([small, big, huge, small]);
    expect(rec.batches.map((b) => b.length)).to.deep.equal([2, 1]);
    const truncated = rec.batches[0]![1]!;
    expect(truncated.requestObject).to.equal(undefined);
    expect(truncated.annotations).to.deep.equal({ 'audit.orch.io/truncated': 'true' });
    expect(await counter(registry, 'apiserver_audit_error_total', { plugin: 'truncate' })).to.equal(1);
  });

  it('buffered: batches up to the max size, drops and counts past the buffer, flushes at shutdown', async () => {
    const rec = new Recorder();
    const { metrics, registry } = metricsWithRegistry();
    const b = new BufferedBackend(rec, { bufferSize: 5, maxBatchSize: 2, maxBatchWaitMs: 60_000, throttleEnable: false, throttleQPS: 0, throttleBurst: 0, asyncDelegate: false }, metrics);
    const evs = Array.from({ length: 7 }, (_, i) => sampleEvent({ auditID: String(i) }));
    expect(b.processEvents(evs)).to.equal(true);
    expect(await counter(registry, 'apiserver_audit_error_total', { plugin: 'buffered' })).to.equal(2);
    await b.shutdown();
    expect(rec.batches.flat().map((e) => e.auditID)).to.deep.equal(['0', '1', '2', '3', '4']);
    expect(Math.max(...rec.batches.map((x) => x.length))).to.equal(2);
  });

  it('log rotation names backups as lumberjack does', () => {
    const t = new Date(Date.UTC(2026, 10, 29, 1, 2, 3, 45));
    expect(backupName('/var/log/audit.log', t)).to.equal('/var/log/audit-2026-11-29T01-02-03.045.log');
    expect(backupTime('/var/log/audit.log', 'audit-2026-11-29T01-02-03.045.log.gz')).to.equal(t.getTime());
    expect(backupTime('/var/log/audit.log', 'other-2026-11-29T01-02-03.045.log')).to.equal(undefined);
  });

  it('log backend: JSON lines, rotation past maxsize, maxbackup pruning, compression', async () => {
    const file = path.join(dir, 'audit.log');
    writeFileSync(path.join(dir, 'audit-2020-01-01T00-00-00.000.log'), 'old\n');
    const out = new RotatingFile(file, { maxSizeMB: 1, maxBackups: 1, maxAgeDays: 0, compress: true });
    const log = new LogBackend(out, 'json', metricsWithRegistry().metrics);
    const ev = sampleEvent({ requestObject: { data: 'z'.repeat(300_000) } });
    for (let i = 0; i < 4; i++) expect(log.processEvents([{ ...ev, auditID: String(i) }])).to.equal(true);
    await log.shutdown();
    const names = readdirSync(dir).sort();
    expect(names).to.have.length(2);
    expect(names[1]).to.equal('audit.log');
    expect(names[0]).to.match(/^audit-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}\.log\.gz$/);
    const current = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as AuditEvent);
    expect(current.map((e) => e.auditID)).to.deep.equal(['3']);
    const rotated = gunzipSync(readFileSync(path.join(dir, names[0]!))).toString('utf8').trim().split('\n');
    expect(rotated.map((l) => (JSON.parse(l) as AuditEvent).auditID)).to.deep.equal(['0', '1', '2']);
  });

  it('log backend writes the configured apiVersion and the legacy format', async () => {
    const file = path.join(dir, 'a.log');
    const out = new RotatingFile(file, { maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0, compress: false });
    new LogBackend(out, 'json', metricsWithRegistry().metrics, 'audit.k8s.io/v1').processEvents([sampleEvent()]);
    await out.close();
    expect((JSON.parse(readFileSync(file, 'utf8')) as AuditEvent).apiVersion).to.equal('audit.k8s.io/v1');
    const file2 = path.join(dir, 'b.log');
    const out2 = new RotatingFile(file2, { maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0, compress: false });
    new LogBackend(out2, 'legacy', metricsWithRegistry().metrics).processEvents([sampleEvent()]);
    await out2.close();
    expect(readFileSync(file2, 'utf8')).to.match(/^2026-11-29T01:24:48\.1234Z AUDIT: id="id-1" .* response="201"\n$/);
  });
});
