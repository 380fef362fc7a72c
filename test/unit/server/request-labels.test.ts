/**
 * The request metrics' labels (upstream endpoints/metrics v1.30 CleanScope, CanonicalVerb,
 * cleanVerb, cleanDryRun) and their bounds: nothing a client sends reaches a label unless the
 * server serves it.
 */
import { expect } from 'chai';
import { parseRequestInfo } from '../../../lib/request/request-info.js';
import { cleanDryRun, isLongRunning, nonResourcePath, requestKind, requestLabels, reportedVerb } from '../../../lib/server/request-labels.js';
import { REQUEST_DURATION_BUCKETS, REQUEST_SLI_DURATION_BUCKETS, RESPONSE_SIZE_BUCKETS, WATCH_EVENT_SIZE_BUCKETS } from '../../../lib/server/request-metrics.js';

const info = (method: string, url: string) => {
  const u = new URL(url, 'https://x');
  return parseRequestInfo(method, u.pathname, u.searchParams);
};
const everything = () => true;

describe('request metric labels', () => {
  describe('reported verb', () => {
    const cases: Array<[string, string, string | undefined, string]> = [
      ['GET', '/api/v1/namespaces/default/pods/p', undefined, 'GET'],
      ['GET', '/api/v1/namespaces/default/pods', undefined, 'LIST'],
      ['GET', '/api/v1/pods', undefined, 'LIST'],
      ['HEAD', '/api/v1/namespaces/default/pods', undefined, 'LIST'],
      ['GET', '/api/v1/namespaces/default/pods?watch=true', undefined, 'WATCH'],
      ['GET', '/api/v1/namespaces/default/pods?watch=1', undefined, 'WATCH'],
      ['GET', '/api/v1/namespaces/default/pods?watch=false', undefined, 'LIST'],
      ['GET', '/api/v1/watch/namespaces/default/pods', undefined, 'WATCH'],
      ['GET', '/api/v1/watch/namespaces/default/pods/p', undefined, 'WATCH'],
      ['POST', '/api/v1/namespaces/default/pods', 'application/json', 'POST'],
      ['PUT', '/api/v1/namespaces/default/pods/p', 'application/json', 'PUT'],
      ['PATCH', '/api/v1/namespaces/default/pods/p', 'application/merge-patch+json', 'PATCH'],
      ['PATCH', '/api/v1/namespaces/default/pods/p', 'application/apply-patch+yaml', 'APPLY'],
      ['DELETE', '/api/v1/namespaces/default/pods/p', undefined, 'DELETE'],
      ['DELETE', '/api/v1/namespaces/default/pods', undefined, 'DELETE'],
      ['GET', '/api/v1/namespaces/default/pods/p/log', undefined, 'CONNECT'],
      ['POST', '/api/v1/namespaces/default/pods/p/exec', undefined, 'CONNECT'],
      ['GET', '/api/v1/namespaces/default/pods/p/proxy/x', undefined, 'CONNECT'],
      ['OPTIONS', '/api/v1/namespaces/default/pods', undefined, 'other'],
      ['TRACE', '/healthz', undefined, 'other'],
      ['GET', '/healthz', undefined, 'GET'],
      ['POST', '/apis', undefined, 'POST'],
    ];
    for (const [method, url, contentType, want] of cases) {
      it(`${method} ${url}${contentType ? ` (${contentType})` : ''} → ${want}`, () => {
        expect(reportedVerb(method, info(method, url), contentType)).to.equal(want);
      });
    }
  });

  it('scope: resource for a name or a create, namespace, cluster, or empty for a non-resource request', () => {
    const scope = (method: string, url: string) => requestLabels(method, info(method, url), '', undefined, everything).scope;
    expect(scope('GET', '/api/v1/namespaces/default/pods/p')).to.equal('resource');
    expect(scope('POST', '/api/v1/namespaces/default/pods')).to.equal('resource');
    expect(scope('GET', '/api/v1/namespaces/default/pods')).to.equal('namespace');
    expect(scope('DELETE', '/api/v1/namespaces/default/pods')).to.equal('namespace');
    expect(scope('GET', '/api/v1/nodes')).to.equal('cluster');
    expect(scope('GET', '/version')).to.equal('');
  });

  it('dry_run: empty, the sorted distinct values, or invalid', () => {
    expect(cleanDryRun('')).to.equal('');
    expect(cleanDryRun('limit=5')).to.equal('');
    expect(cleanDryRun('dryRun=All')).to.equal('All');
    expect(cleanDryRun('dryRun=All&dryRun=All')).to.equal('All');
    expect(cleanDryRun('dryRun=bogus')).to.equal('invalid');
    expect(cleanDryRun('dryRun=All&dryRun=x')).to.equal('invalid');
    expect(cleanDryRun('dryRun=')).to.equal('invalid');
  });

  it('an unserved resource, group or subresource leaves group, version, resource and subresource empty', () => {
    const url = '/apis/evil.example.com/v1/namespaces/ns/things-123/x/sub-456';
    const l = requestLabels('GET', info('GET', url), '', undefined, () => false);
    expect(l).to.deep.equal({ verb: 'GET', dry_run: '', group: '', version: '', resource: '', subresource: '', scope: 'resource', component: 'apiserver' });
    const served = requestLabels('GET', info('GET', '/apis/apps/v1/namespaces/ns/deployments/d/scale'), '', undefined, everything);
    expect(served).to.include({ group: 'apps', version: 'v1', resource: 'deployments', subresource: 'scale' });
  });

  it('a non-resource request is labelled by one of the server paths, never by the raw path', () => {
    expect(nonResourcePath('/healthz')).to.equal('/healthz');
    expect(nonResourcePath('/readyz/etcd')).to.equal('/readyz');
    expect(nonResourcePath('/openapi/v3/apis/apps/v1')).to.equal('/openapi/v3');
    expect(nonResourcePath('/apis/apps')).to.equal('/apis');
    expect(nonResourcePath('/metrics')).to.equal('/metrics');
    expect(nonResourcePath('/random/attacker/path')).to.equal('');
    expect(nonResourcePath('/healthzfoo')).to.equal('');
    const l = requestLabels('GET', info('GET', '/random/attacker/path'), 'dryRun=zzz', undefined, everything);
    expect(l).to.deep.equal({ verb: 'GET', dry_run: 'invalid', group: '', version: '', resource: '', subresource: '', scope: '', component: 'apiserver' });
  });

  it('long-running requests and request kinds as upstream', () => {
    expect(isLongRunning(info('GET', '/api/v1/pods?watch=true'))).to.equal(true);
    expect(isLongRunning(info('GET', '/api/v1/namespaces/d/pods/p/log'))).to.equal(true);
    for (const sub of ['exec', 'attach', 'portforward', 'proxy', 'proxy/a/b']) expect(isLongRunning(info('POST', `/api/v1/namespaces/d/pods/p/${sub}`)), sub).to.equal(true);
    expect(isLongRunning(info('GET', '/api/v1/nodes/n/proxy/stats'))).to.equal(true);
    expect(isLongRunning(info('GET', '/api/v1/namespaces/d/pods/p/status'))).to.equal(false);
    expect(isLongRunning(info('GET', '/api/v1/namespaces/d/pods/p'))).to.equal(false);
    expect(isLongRunning(info('GET', '/metrics'))).to.equal(false);
    expect(requestKind(info('GET', '/api/v1/pods'))).to.equal('readOnly');
    expect(requestKind(info('GET', '/metrics'))).to.equal('readOnly');
    expect(requestKind(info('POST', '/api/v1/namespaces/d/pods'))).to.equal('mutating');
  });

  it('buckets match upstream', () => {
    expect(REQUEST_DURATION_BUCKETS).to.deep.equal([0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60]);
    expect(REQUEST_SLI_DURATION_BUCKETS).to.deep.equal([0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60]);
    expect(RESPONSE_SIZE_BUCKETS).to.deep.equal([1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000]);
    expect(WATCH_EVENT_SIZE_BUCKETS).to.deep.equal([1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072]);
  });
});
