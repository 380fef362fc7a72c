import { expect } from 'chai';
import { type Availability, type AvailabilityDeps, checkAvailability } from '../../../../lib/controllers/apiservice-availability/check.js';
import { conditionMatches, setAvailableCondition } from '../../../../lib/controllers/apiservice-availability/controller.js';
import { ResolveError } from '../../../../lib/client/service-resolver.js';

type Obj = Record<string, unknown>;

const apiService = (service: Obj | null, name = 'v1.w.example'): Obj => ({ metadata: { name }, spec: { service, group: 'w.example', version: 'v1' } });
const REF = { namespace: 'ns', name: 'api', port: 443 };
const SVC = { spec: { ports: [{ name: 'https', port: 443 }] } };
const EPS = { subsets: [{ addresses: [{ ip: '192.0.2.9' }], ports: [{ name: 'https', port: 8443 }] }] };

function deps(over: { svc?: Obj; eps?: Obj; status?: number; fail?: string; resolveFail?: string; paths?: string[] } = {}): AvailabilityDeps {
  return {
    services: { service: () => ('svc' in over ? over.svc : SVC), endpoints: () => ('eps' in over ? over.eps : EPS) },
    resolve: () => {
      if (over.resolveFail) throw new ResolveError(over.resolveFail);
      return { host: '192.0.2.9', port: 8443 };
    },
    get: async (_a, _t, path) => {
      over.paths?.push(path);
      if (over.fail) throw new Error(over.fail);
      return { status: over.status ?? 200 };
    },
  };
}

describe('controllers/apiservice-availability check (issue #20; upstream AvailableConditionController)', () => {
  const cases: Array<[string, Obj, AvailabilityDeps, Availability]> = [
    ['a local APIService', apiService(null), deps(), { status: 'True', reason: 'Local', message: 'Local APIServices are always available' }],
    ['no Service', apiService(REF), deps({ svc: undefined }), { status: 'False', reason: 'ServiceNotFound', message: 'service/api in "ns" is not present' }],
    ['a Service not on the port', apiService({ ...REF, port: 8443 }), deps(), { status: 'False', reason: 'ServicePortError', message: 'service/api in "ns" is not listening on port 8443' }],
    ['no Endpoints', apiService(REF), deps({ eps: undefined }), { status: 'False', reason: 'EndpointsNotFound', message: 'cannot find endpoints for service/api in "ns"' }],
    [
      'Endpoints without an address on the port name',
      apiService(REF),
      deps({ eps: { subsets: [{ addresses: [], ports: [{ name: 'https', port: 1 }] }, { addresses: [{ ip: '192.0.2.1' }], ports: [{ name: 'http', port: 1 }] }] } }),
      { status: 'False', reason: 'MissingEndpoints', message: 'endpoints for service/api in "ns" have no addresses with port name "https"' },
    ],
    ['a discovery error status', apiService(REF), deps({ status: 403 }), { status: 'False', reason: 'FailedDiscoveryCheck', message: 'failing or missing response from https://192.0.2.9:8443/apis/w.example/v1: bad status from https://192.0.2.9:8443/apis/w.example/v1: 403' }],
    ['a network failure', apiService(REF), deps({ fail: 'Get "https://192.0.2.9:8443/apis/w.example/v1": dial tcp 192.0.2.9:8443: connect: connection refused' }), { status: 'False', reason: 'FailedDiscoveryCheck', message: 'failing or missing response from https://192.0.2.9:8443/apis/w.example/v1: Get "https://192.0.2.9:8443/apis/w.example/v1": dial tcp 192.0.2.9:8443: connect: connection refused' }],
    ['a timeout', apiService(REF), deps({ fail: 'timed out waiting for https://192.0.2.9:8443/apis/w.example/v1' }), { status: 'False', reason: 'FailedDiscoveryCheck', message: 'timed out waiting for https://192.0.2.9:8443/apis/w.example/v1' }],
    ['an address that cannot be resolved', apiService(REF), deps({ resolveFail: 'no endpoints available for service "api"' }), { status: 'False', reason: 'FailedDiscoveryCheck', message: 'no endpoints available for service "api"' }],
    ['an ExternalName Service (no endpoint checks)', apiService(REF), deps({ svc: { spec: { type: 'ExternalName' } }, eps: undefined }), { status: 'True', reason: 'Passed', message: 'all checks passed' }],
    ['a server answering discovery', apiService(REF), deps(), { status: 'True', reason: 'Passed', message: 'all checks passed' }],
  ];
  for (const [what, a, d, expected] of cases) {
    it(`${what}: ${expected.reason}`, async () => {
      expect(await checkAvailability(d, a)).to.deep.equal(expected);
    });
  }

  it('checks /api/<version> for the core group APIService v1.', async () => {
    const paths: string[] = [];
    await checkAvailability(deps({ paths }), apiService(REF, 'v1.'));
    expect(new Set(paths)).to.deep.equal(new Set(['/api/v1']));
  });

  it('keeps lastTransitionTime while the status stays, changes it when the status flips', () => {
    const a: Obj = { status: { conditions: [{ type: 'Other', status: 'True' }] } };
    setAvailableCondition(a, { status: 'False', reason: 'ServiceNotFound', message: 'm1' }, new Date('2026-01-01T00:00:00Z'));
    setAvailableCondition(a, { status: 'False', reason: 'MissingEndpoints', message: 'm2' }, new Date('2026-01-02T00:00:00Z'));
    expect((a.status as Obj).conditions).to.deep.equal([
      { type: 'Other', status: 'True' },
      { type: 'Available', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'MissingEndpoints', message: 'm2' },
    ]);
    setAvailableCondition(a, { status: 'True', reason: 'Passed', message: 'all checks passed' }, new Date('2026-01-03T00:00:00Z'));
    expect(((a.status as Obj).conditions as Obj[])[1]).to.include({ status: 'True', lastTransitionTime: '2026-01-03T00:00:00Z' });
    expect(conditionMatches(a, { status: 'True', reason: 'Passed', message: 'all checks passed' })).to.equal(true);
    expect(conditionMatches(a, { status: 'True', reason: 'Passed', message: 'other' })).to.equal(false);
  });
});
