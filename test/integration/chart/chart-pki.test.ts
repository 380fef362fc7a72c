import { expect } from 'chai';
import { SERVER_NAME } from '../../../lib/apis/vendor.js';
import { X509Certificate } from 'node:crypto';
import { loadChart } from '../../../hack/helm-render/chart.js';
import { chartFullname, generateChartPKI } from '../../../hack/helm-render/pki.js';
import { CHART_DIR, findObject, renderTestChart } from '../../framework/chart.js';

const PEER_DOMAIN = `demo-${SERVER_NAME}-etcd-peer.ops.svc.cluster.local`;

describe('the chart PKI (hack/chart-pki.ts)', () => {
  it('names what the chart renders: the Service, every etcd member, the peer and client usages', async function () {
    this.timeout(30_000);
    expect(chartFullname('demo')).to.equal(`demo-${loadChart(CHART_DIR).metadata.name}`);
    const pki = await generateChartPKI({ release: 'demo', namespace: 'ops' });
    const { objects } = renderTestChart({}, 'ops');
    const sts = findObject(objects, 'StatefulSet');
    const c = sts.spec.template.spec.containers[0];
    const member = (c.args as string[]).find((a) => a.startsWith('--initial-advertise-peer-urls='))!.replace(/^.*\/\/\$\(POD_NAME\)/, `${sts.metadata.name}-0`).replace(/:\d+$/, '');
    const server = new X509Certificate(pki.etcd['server.crt']!);
    const peer = new X509Certificate(pki.etcd['peer.crt']!);
    // checkHost answers the name that matched (here the wildcard), undefined when none does.
    expect(server.checkHost(member)).to.equal(`*.${PEER_DOMAIN}`);
    expect(peer.checkHost(member)).to.equal(`*.${PEER_DOMAIN}`);
    expect(server.checkHost('elsewhere.example')).to.equal(undefined);
    expect(peer.toLegacyObject().ext_key_usage).to.have.members(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    expect(server.checkIssued(new X509Certificate(pki.etcd['ca.crt']!))).to.equal(true);
    const serving = new X509Certificate(pki.apiserver['apiserver.crt']!);
    const svc = findObject(objects, 'Service', pki.names.fullname);
    expect(serving.checkHost(`${svc.metadata.name}.ops.svc`)).to.equal(`${svc.metadata.name}.ops.svc`);
    expect(serving.checkIP('127.0.0.1')).to.equal('127.0.0.1');
    expect(Object.keys(pki.apiserver).sort()).to.deep.equal(['apiserver.crt', 'apiserver.key', 'ca.crt', 'sa.key', 'sa.pub']);
  });
});
