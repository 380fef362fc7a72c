/**
 * Request logs at `-v=3` on the real command (issue #16 item 7): upstream's httplog record in
 * klog's text format (the default `--logging-format`), one line per request with verb, URI,
 * latency, user agent, audit ID, source address and status.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { useEtcd } from '../../framework/etcd.js';
import { type ServerProcess, startServerProcess } from '../../framework/server-process.js';

/** The first log line containing `needle`, waiting up to `ms` for it. */
async function logLine(server: ServerProcess, needle: string, ms = 10_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const line = server.log().split('\n').find((l) => l.includes(needle));
    if (line !== undefined) return line;
    if (Date.now() > deadline) throw new Error(`no log line with ${needle} within ${ms} ms:\n${server.log().slice(-2000)}`);
    await sleep(50);
  }
}

describe('request logs at -v=3 (issue #16 item 7)', function () {
  this.timeout(90_000);
  let server: ServerProcess | undefined;
  before(async () => {
    const { endpoint } = await useEtcd();
    server = await startServerProcess([`--etcd-servers=${endpoint}`, `--etcd-prefix=/${randomUUID()}`, '-v=3']);
  });
  after(async () => {
    await server?.stop();
  });

  it('logs each request as upstream\'s httplog line: verb, URI, latency, userAgent, audit-ID, srcIP, resp', async () => {
    const res = await server!.admin.get('/api/v1/namespaces/default/configmaps?limit=5', { headers: { 'User-Agent': 'request-log-test/1.0' } });
    expect(res.status).to.equal(200);
    const auditID = res.headers['audit-id'] as string;
    expect(auditID).to.match(/^[0-9a-f-]{36}$/);
    const line = await logLine(server!, `audit-ID="${auditID}"`);
    expect(line).to.match(
      new RegExp(
        '^I\\d{4} \\d\\d:\\d\\d:\\d\\d\\.\\d{6} +\\d+ request-log\\.ts:\\d+\\] "HTTP" verb="LIST" URI="/api/v1/namespaces/default/configmaps\\?limit=5" ' +
          `latency="\\d+(\\.\\d+)?(µs|ms|s)" userAgent="request-log-test/1\\.0" audit-ID="${auditID}" srcIP="127\\.0\\.0\\.1:\\d+" resp=200$`,
      ),
    );
  });

  it('logs the status the client got for a failed request', async () => {
    const res = await server!.admin.get('/api/v1/namespaces/default/configmaps/absent', { headers: { 'User-Agent': 'request-log-404' } });
    expect(res.status).to.equal(404);
    const line = await logLine(server!, 'userAgent="request-log-404"');
    expect(line).to.include('"HTTP" verb="GET" URI="/api/v1/namespaces/default/configmaps/absent"');
    expect(line).to.match(/ resp=404$/);
  });

  it('logs a watch when its stream ends, with WATCH as the verb', async () => {
    const w = await server!.admin.watch('/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1', { headers: { 'User-Agent': 'request-log-watch' } });
    expect(w.status).to.equal(200);
    while ((await w.next(5_000)) !== null);
    const line = await logLine(server!, 'userAgent="request-log-watch"');
    expect(line).to.include('"HTTP" verb="WATCH" URI="/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1"');
    const latency = /latency="([\d.]+)(µs|ms|s)"/.exec(line)!;
    expect(latency[2]).to.equal('s');
    expect(Number(latency[1])).to.be.at.least(1);
  });
});
