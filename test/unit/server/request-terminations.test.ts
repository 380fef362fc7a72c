/**
 * The recorder of requests the server ends itself (lib/server/request-terminations.ts): labels as
 * `apiserver_request_total`'s, bounded for what the server does not serve; one termination per
 * request.
 */
import { expect } from 'chai';
import type { Context } from 'koa';
import { StabilityRegistry } from '../../../lib/metrics/registry.js';
import { RequestTerminationMetrics } from '../../../lib/metrics/request-terminations.js';
import { internalContext } from '../../../lib/request/context.js';
import type { RequestInfo } from '../../../lib/request/request-info.js';
import { requestTerminationRecorder } from '../../../lib/server/request-terminations.js';

/** A Koa context of `method` with the request info `info` (no request context when `info` is null). */
function koaFor(method: string, info: Partial<RequestInfo> | null, querystring = ''): Context {
  const state = info === null ? {} : { requestContext: internalContext({ name: 'u', groups: [] }, info) };
  return { method, querystring, state, get: () => '' } as unknown as Context;
}

describe('server/request-terminations: the termination recorder', () => {
  const setup = (served = true) => {
    const r = new StabilityRegistry();
    const recorder = requestTerminationRecorder(new RequestTerminationMetrics(r), () => served);
    return { recorder, text: () => r.registry.metrics() };
  };
  const create = { verb: 'create', apiVersion: 'v1', resource: 'configmaps', namespace: 'default' };

  it('labels a terminated request as apiserver_request_total does, without dry_run', async () => {
    const { recorder, text } = setup();
    recorder.terminated(koaFor('POST', create, 'dryRun=All'), 504);
    recorder.terminated(koaFor('GET', { verb: 'list', apiGroup: 'apps', apiVersion: 'v1', resource: 'deployments', namespace: 'ns' }), 429);
    const t = await text();
    expect(t).to.include('apiserver_request_terminations_total{verb="POST",group="",version="v1",resource="configmaps",subresource="",scope="resource",component="apiserver",code="504"} 1');
    expect(t).to.include('apiserver_request_terminations_total{verb="LIST",group="apps",version="v1",resource="deployments",subresource="",scope="namespace",component="apiserver",code="429"} 1');
  });

  it('counts a request once, whichever filter ends it first', async () => {
    const { recorder, text } = setup();
    const koa = koaFor('POST', create);
    recorder.terminated(koa, 504);
    recorder.terminated(koa, 429);
    const t = await text();
    expect(t).to.include('code="504"} 1');
    expect(t).not.to.include('code="429"');
  });

  it('a resource the server does not serve leaves group, version, resource and subresource empty', async () => {
    const { recorder, text } = setup(false);
    const koa = koaFor('GET', { verb: 'get', apiGroup: 'x.example.com', apiVersion: 'v9', resource: 'made-up', subresource: 'junk', name: 'n' });
    recorder.terminated(koa, 429);
    recorder.aborted(koa);
    const t = await text();
    expect(t).to.include('apiserver_request_terminations_total{verb="GET",group="",version="",resource="",subresource="",scope="resource",component="apiserver",code="429"} 1');
    expect(t).to.include('apiserver_request_aborts_total{verb="GET",group="",version="",resource="",subresource="",scope="resource"} 1');
  });

  it("a non-resource request is labelled by one of the server's own paths only", async () => {
    const { recorder, text } = setup();
    recorder.terminated(koaFor('GET', { isResourceRequest: false, verb: 'get', path: '/healthz/etcd' }), 504);
    recorder.terminated(koaFor('GET', { isResourceRequest: false, verb: 'get', path: '/some/client/path' }), 429);
    const t = await text();
    expect(t).to.include('apiserver_request_terminations_total{verb="GET",group="",version="",resource="",subresource="/healthz",scope="",component="apiserver",code="504"} 1');
    expect(t).to.include('apiserver_request_terminations_total{verb="GET",group="",version="",resource="",subresource="",scope="",component="apiserver",code="429"} 1');
    expect(t).not.to.include('/some/client/path');
  });

  it('a request without a request context is not recorded', async () => {
    const { recorder, text } = setup();
    recorder.terminated(koaFor('GET', null), 504);
    recorder.aborted(koaFor('GET', null));
    expect(await text()).not.to.match(/^apiserver_request_(terminations|aborts)_total\{/m);
  });
});
