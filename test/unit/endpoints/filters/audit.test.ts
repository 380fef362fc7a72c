import { expect } from 'chai';
import Koa from 'koa';
import { PolicyChecker } from '../../../../lib/audit/checker.js';
import { AuditMetrics } from '../../../../lib/audit/metrics.js';
import type { AuditPipeline } from '../../../../lib/audit/pipeline.js';
import type { AuditBackend, AuditEvent, Policy } from '../../../../lib/audit/types.js';
import { withAudit, withAuditInit } from '../../../../lib/endpoints/filters/audit.js';
import { requestContextOf, withRequestInfo } from '../../../../lib/endpoints/filters/request-info.js';
import { withStatusErrors } from '../../../../lib/server/filters/errors.js';
import { type LocalHTTPServer, listenLocal } from '../../../framework/local-http.js';

class Recorder implements AuditBackend {
  readonly name = 'recorder';
  events: AuditEvent[] = [];
  accept = true;
  processEvents(events: AuditEvent[]): boolean {
    this.events.push(...events);
    return this.accept;
  }
  async shutdown(): Promise<void> {}
}

describe('endpoints/filters/audit', () => {
  let local: LocalHTTPServer;
  let url: string;
  const rec = new Recorder();
  const policy: Policy = { rules: [{ level: 'None', nonResourceURLs: ['/quiet'] }, { level: 'Metadata', omitStages: ['RequestReceived'], verbs: ['post'] }, { level: 'Metadata' }] };
  const pipeline: AuditPipeline = { checker: new PolicyChecker(policy), backend: rec, metrics: new AuditMetrics(), shutdown: async () => undefined };

  before(async () => {
    const app = new Koa();
    app.use(withStatusErrors(() => undefined));
    app.use(withRequestInfo(new AbortController().signal));
    app.use(withAuditInit(pipeline));
    app.use(async (koa, next) => {
      requestContextOf(koa).user = { name: 'u', groups: ['g'] };
      await next();
    });
    app.use(withAudit(pipeline));
    app.use((koa) => {
      if (koa.path === '/boom') throw new Error('kaput');
      requestContextOf(koa).auditAnnotations.note = 'yes';
      koa.body = 'ok';
    });
    local = await listenLocal(app);
    url = local.url;
  });
  after(() => local.close());
  beforeEach(() => {
    rec.events = [];
    rec.accept = true;
  });

  it('emits RequestReceived and ResponseComplete with annotations and the Audit-Id header', async () => {
    const res = await fetch(`${url}/healthz?x=1`);
    const id = res.headers.get('audit-id')!;
    expect(rec.events.map((e) => e.stage)).to.deep.equal(['RequestReceived', 'ResponseComplete']);
    expect(rec.events[1]).to.deep.include({ auditID: id, verb: 'get', requestURI: '/healthz?x=1', user: { username: 'u', groups: ['g'] }, responseStatus: { metadata: {}, code: 200 }, annotations: { note: 'yes' } });
  });

  it('omits the stages the rule omits, and audits nothing at level None', async () => {
    await fetch(`${url}/x`, { method: 'POST' });
    expect(rec.events.map((e) => e.stage)).to.deep.equal(['ResponseComplete']);
    rec.events = [];
    await fetch(`${url}/quiet`);
    expect(rec.events).to.have.length(0);
  });

  it('an unexpected error is the Panic stage, not ResponseComplete', async () => {
    const res = await fetch(`${url}/boom`);
    expect(res.status).to.equal(500);
    expect(rec.events.map((e) => e.stage)).to.deep.equal(['RequestReceived', 'Panic']);
    expect(rec.events[1]!.responseStatus).to.deep.equal({ metadata: {}, status: 'Failure', message: "APIServer panic'd: kaput", reason: 'InternalError', code: 500 });
  });

  it('a RequestReceived event the backend refuses rejects the request (blocking-strict)', async () => {
    rec.accept = false;
    const res = await fetch(`${url}/healthz`);
    expect(res.status).to.equal(500);
    expect(await res.text()).to.equal('Internal Server Error: "/healthz": failed to store audit event\n');
    expect(rec.events.map((e) => e.stage)).to.deep.equal(['RequestReceived']);
  });

  it('keeps the client-sent Audit-ID', async () => {
    const res = await fetch(`${url}/healthz`, { headers: { 'Audit-ID': 'abc' } });
    expect(res.headers.get('audit-id')).to.equal('abc');
    expect(rec.events[0]!.auditID).to.equal('abc');
  });
});
