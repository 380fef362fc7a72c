/**
 * Metric stability and deprecated API requests on `/metrics` (issue #15 items 4 and 6): the
 * stability prefixes of the HELP lines, and `apiserver_requested_deprecated_apis` for a
 * deprecated built-in kind (core/v1 componentstatuses, deprecated since 1.19; flowcontrol
 * v1beta3, removed in 1.32) and for a CustomResourceDefinition version marked deprecated.
 */
import { expect } from 'chai';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { createCRD, deleteCRD } from '../../framework/crd.js';
import { useTestServer } from '../../framework/test-server.js';

const GROUP = 'metrics.example.com';
const DEPRECATED_APIS = 'apiserver_requested_deprecated_apis';

const gadgets = {
  apiVersion: `${vendorGroup('apiextensions')}/v1`,
  kind: 'CustomResourceDefinition',
  metadata: { name: `gadgets.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-orch-preserve-unknown-fields': true } } },
      { name: 'v1beta1', served: true, storage: false, deprecated: true, schema: { openAPIV3Schema: { type: 'object', 'x-orch-preserve-unknown-fields': true } } },
    ],
  },
};

describe('integration: metric stability and deprecated API requests', function () {
  this.timeout(30_000);
  const server = useTestServer();
  const admin = () => server().admin;
  const metrics = async () => (await admin().get('/metrics')).text;
  const deprecatedLines = async () => (await metrics()).split('\n').filter((l) => l.startsWith(`${DEPRECATED_APIS}{`));

  it('HELP lines carry the stability level', async () => {
    await admin().get('/api/v1/namespaces');
    const text = await metrics();
    expect(text).to.include('# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.');
    expect(text).to.include('# HELP apiserver_request_duration_seconds [STABLE] ');
    expect(text).to.include(`# HELP ${DEPRECATED_APIS} [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.`);
    expect(text).to.match(/# HELP apiserver_watch_cache_objects \[ALPHA\] /);
    for (const help of text.split('\n').filter((l) => l.startsWith('# HELP '))) expect(help).to.match(/^# HELP \S+ \[(ALPHA|BETA|STABLE)\] /);
  });

  it('a request to a non-deprecated API records nothing', async () => {
    expect((await admin().get('/api/v1/namespaces/default/configmaps')).status).to.equal(200);
    expect((await deprecatedLines()).filter((l) => l.includes('resource="configmaps"'))).to.deep.equal([]);
  });

  it('componentstatuses (deprecated since 1.19, no removal planned) sets the gauge and warns', async () => {
    const res = await admin().get('/api/v1/componentstatuses');
    expect(res.status).to.equal(200);
    expect(res.headers.warning).to.equal('299 - "v1 ComponentStatus is deprecated in v1.19+"');
    expect(await deprecatedLines()).to.include(`${DEPRECATED_APIS}{group="",version="v1",resource="componentstatuses",subresource="",removed_release=""} 1`);
  });

  it('flowcontrol v1beta3 (removed in 1.32) sets the gauge with its removal release, under the alias as addressed', async () => {
    const group = vendorGroup('flowcontrol.apiserver');
    expect((await admin().get(`/apis/${group}/v1beta3/flowschemas`)).status).to.equal(200);
    expect((await admin().get('/apis/flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations/exempt/status')).status).to.equal(200);
    const lines = await deprecatedLines();
    expect(lines).to.include(`${DEPRECATED_APIS}{group="${group}",version="v1beta3",resource="flowschemas",subresource="",removed_release="1.32"} 1`);
    expect(lines).to.include(`${DEPRECATED_APIS}{group="flowcontrol.apiserver.k8s.io",version="v1beta3",resource="prioritylevelconfigurations",subresource="status",removed_release="1.32"} 1`);
    expect((await admin().get(`/apis/${group}/v1/flowschemas`)).status).to.equal(200);
    expect((await deprecatedLines()).filter((l) => l.includes('version="v1",resource="flowschemas"'))).to.deep.equal([]);
  });

  it('a CRD version marked deprecated sets the gauge; its served non-deprecated version does not', async () => {
    await createCRD(admin(), gadgets);
    try {
      const v1beta1 = await admin().get(`/apis/${GROUP}/v1beta1/namespaces/default/gadgets`);
      expect(v1beta1.status).to.equal(200);
      expect(v1beta1.headers.warning).to.equal(`299 - "${GROUP}/v1beta1 Gadget is deprecated"`);
      expect((await admin().get(`/apis/${GROUP}/v1/namespaces/default/gadgets`)).status).to.equal(200);
      const lines = (await deprecatedLines()).filter((l) => l.includes(`group="${GROUP}"`));
      expect(lines).to.deep.equal([`${DEPRECATED_APIS}{group="${GROUP}",version="v1beta1",resource="gadgets",subresource="",removed_release=""} 1`]);
    } finally {
      await deleteCRD(admin(), gadgets.metadata.name);
    }
  });
});
