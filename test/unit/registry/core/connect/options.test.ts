/**
 * The connect subresources' options from the query (issue #20; spec 000 § Verb mapping): upstream
 * parameter names and boolean conversion, PodLogOptions validation (422) and malformed numbers
 * and times (400), the proxy id (`scheme:name:port`), the container choice and the node address.
 */
import { expect } from 'chai';
import { StatusError } from '../../../../../lib/apimachinery/errors.js';
import { podLogOptions, podPortForwardOptions, podStreamOptions, proxyOptions } from '../../../../../lib/registry/core/connect/options.js';
import { splitSchemeNamePort } from '../../../../../lib/registry/core/connect/scheme-name-port.js';
import { chooseContainer, isGlobalUnicast } from '../../../../../lib/registry/core/connect/pod-connecters.js';
import { joinHostPort, kubeletPort, preferredNodeAddress } from '../../../../../lib/registry/core/connect/kubelet-connection.js';

/** The Status of what `fn` throws. */
function statusOf(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err.status;
    throw err;
  }
  throw new Error('did not throw');
}

describe('registry/core/connect options (issue #20)', () => {
  it('PodLogOptions: names, booleans as upstream converts them, numbers, a time normalized to RFC 3339', () => {
    const q = new URLSearchParams('container=c&follow=1&previous=false&timestamps=TRUE&tailLines=10&limitBytes=5&sinceTime=2024-01-02T03:04:05.123%2B01:00');
    expect(podLogOptions(q, 'p')).to.deep.equal({ kind: 'PodLogOptions', apiVersion: 'v1', container: 'c', follow: true, timestamps: true, tailLines: 10, limitBytes: 5, sinceTime: '2024-01-02T02:04:05Z' });
    expect(podLogOptions(new URLSearchParams('follow=0'), 'p')).to.deep.equal({ kind: 'PodLogOptions', apiVersion: 'v1' });
  });

  const invalid: Array<[string, string]> = [
    ['tailLines=-1', 'PodLogOptions "p" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0'],
    ['limitBytes=0', 'PodLogOptions "p" is invalid: limitBytes: Invalid value: 0: must be greater than 0'],
    ['sinceSeconds=0', 'PodLogOptions "p" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0'],
    ['sinceSeconds=5&sinceTime=2024-01-02T03:04:05Z', 'PodLogOptions "p" is invalid: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified'],
  ];
  for (const [query, message] of invalid) {
    it(`PodLogOptions ${query}: 422`, () => {
      const s = statusOf(() => podLogOptions(new URLSearchParams(query), 'p'));
      expect(s).to.include({ code: 422, reason: 'Invalid', message });
      expect(s.details).to.include({ name: 'p', kind: 'PodLogOptions' });
    });
  }

  const malformed: Array<[string, string]> = [
    ['tailLines=x', 'strconv.ParseInt: parsing "x": invalid syntax'],
    ['tailLines=99999999999999999999', 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
    ['sinceTime=yesterday', 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
    ['sinceTime=2024-02-30T00:00:00Z', 'parsing time "2024-02-30T00:00:00Z": day out of range'],
  ];
  for (const [query, message] of malformed) {
    it(`PodLogOptions ${query}: 400`, () => {
      expect(statusOf(() => podLogOptions(new URLSearchParams(query), 'p'))).to.include({ code: 400, reason: 'BadRequest', message });
    });
  }

  it('PodExecOptions, PodAttachOptions, PodPortForwardOptions and the proxies', () => {
    expect(podStreamOptions(new URLSearchParams('stdin=true&stdout=1&stderr=false&tty=0&container=c&command=ls&command=-l'), true)).to.deep.equal({ kind: 'PodExecOptions', apiVersion: 'v1', stdin: true, stdout: true, container: 'c', command: ['ls', '-l'] });
    expect(podStreamOptions(new URLSearchParams('command=ls&stdout=true'), false)).to.deep.equal({ kind: 'PodAttachOptions', apiVersion: 'v1', stdout: true });
    expect(podPortForwardOptions(new URLSearchParams('ports=80&ports=8080'))).to.deep.equal({ kind: 'PodPortForwardOptions', apiVersion: 'v1', ports: [80, 8080] });
    expect(statusOf(() => podPortForwardOptions(new URLSearchParams('ports=99999999999')))).to.include({ code: 400 });
    expect(proxyOptions('NodeProxyOptions', '/metrics')).to.deep.equal({ kind: 'NodeProxyOptions', apiVersion: 'v1', path: '/metrics' });
    expect(proxyOptions('PodProxyOptions', '')).to.deep.equal({ kind: 'PodProxyOptions', apiVersion: 'v1' });
  });

  it('the proxy id: name, name:port, scheme:name:port with http, https or no scheme', () => {
    expect(splitSchemeNamePort('web')).to.deep.equal({ scheme: '', name: 'web', port: '' });
    expect(splitSchemeNamePort('web:80')).to.deep.equal({ scheme: '', name: 'web', port: '80' });
    expect(splitSchemeNamePort('https:web:tls')).to.deep.equal({ scheme: 'https', name: 'web', port: 'tls' });
    expect(splitSchemeNamePort(':web:80')).to.deep.equal({ scheme: '', name: 'web', port: '80' });
    for (const bad of ['ftp:web:80', 'a:b:c:d', ':80', 'http::80']) expect(splitSchemeNamePort(bad), bad).to.equal(undefined);
  });

  it('the container: named (any kind of container), or the only one; else upstream messages', () => {
    const pod = { spec: { initContainers: [{ name: 'init' }], containers: [{ name: 'a' }, { name: 'b' }], ephemeralContainers: [{ name: 'dbg' }] } };
    expect(chooseContainer(pod, 'dbg', 'p')).to.equal('dbg');
    expect(chooseContainer({ spec: { containers: [{ name: 'only' }] } }, '', 'p')).to.equal('only');
    expect(statusOf(() => chooseContainer(pod, '', 'p')).message).to.equal('a container name must be specified for pod p, choose one of: [init a b dbg]');
    expect(statusOf(() => chooseContainer({ spec: { containers: [] } }, '', 'p')).message).to.equal('a container name must be specified for pod p');
    expect(statusOf(() => chooseContainer(pod, 'x', 'p')).message).to.equal('container x is not valid for pod p');
  });

  it('the node address of the most preferred type, the kubelet port (default 10250), IPv6 in brackets', () => {
    const node = { status: { addresses: [{ type: 'ExternalIP', address: '203.0.113.1' }, { type: 'InternalIP', address: '10.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: 10255 } } } };
    expect(preferredNodeAddress(node, ['Hostname', 'InternalIP', 'ExternalIP'])).to.equal('10.0.0.1');
    expect(preferredNodeAddress(node, ['ExternalIP', 'InternalIP'])).to.equal('203.0.113.1');
    expect(statusOf(() => preferredNodeAddress(node, ['Hostname']))).to.include({ code: 500, message: 'Internal error occurred: no preferred addresses found; known addresses: [{ExternalIP 203.0.113.1} {InternalIP 10.0.0.1}]' });
    expect(kubeletPort(node)).to.equal(10255);
    expect(kubeletPort({ status: {} })).to.equal(10250);
    expect(joinHostPort('fd00::1', 10250)).to.equal('[fd00::1]:10250');
  });

  it('pod proxy addresses must be global unicast (upstream refuses loopback, link-local, unspecified)', () => {
    for (const ok of ['10.0.0.1', '192.0.2.2', 'fd00::2']) expect(isGlobalUnicast(ok), ok).to.equal(true);
    for (const bad of ['127.0.0.1', '0.0.0.0', '169.254.1.1', '224.0.0.1', '::1', 'fe80::1', '', 'x', '300.1.1.1']) expect(isGlobalUnicast(bad), bad).to.equal(false);
  });
});
