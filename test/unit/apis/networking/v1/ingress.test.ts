import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { ingress, NETWORKING_GROUP } from '../../../../../lib/apis/networking/v1/index.js';
import { INGRESS_CLASS_ANNOTATION, vendorGroup } from '../../../../../lib/apis/vendor.js';
import { ingressStatusStrategy, ingressStrategy } from '../../../../../lib/registry/networking/ingress/strategy.js';
import type { RequestContext } from '../../../../../lib/request/context.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, variant } from '../../kind-pipeline.js';

const ctx = {} as RequestContext;
const backend = (name = 'web', port: Obj = { number: 80 }): Obj => ({ service: { name, port } });
const minimal = (): Obj => ({
  apiVersion: ingress.apiVersion,
  kind: 'Ingress',
  metadata: { name: 'web', namespace: 'default' },
  spec: { rules: [{ host: 'web.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: backend() }] } }] },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const path0 = (o: Obj): Obj => ((((spec(o).rules as Obj[])[0]!.http as Obj).paths as Obj[])[0]!);
const errorsOf = (mutate: (o: Obj) => void): string[] => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(ingress, o);
  return messages(validateCreate(ingress, o));
};
const P = 'spec.rules[0].http.paths[0]';

describe('networking/v1 Ingress: definition', () => {
  it('declares the upstream discovery facts: namespaced, short name ing, a status subresource', () => {
    expect(NETWORKING_GROUP).to.equal(vendorGroup('networking'));
    expect(ingress).to.include({ group: NETWORKING_GROUP, version: 'v1', kind: 'Ingress', resource: 'ingresses', singular: 'ingress', namespaced: true, statusSubresource: true });
    expect(ingress.shortNames).to.deep.equal(['ing']);
    expect(ingress.categories).to.deep.equal([]);
    expect(ingress.fieldSelectors).to.deep.equal({});
    expect(ingress.schema.id).to.equal('api.networking.v1.Ingress');
  });

  it('has no defaults in v1 and a minimal ingress validates clean', () => {
    const o = minimal();
    expect(decodeAndDefault(ingress, o)).to.deep.equal({ unknownFields: [] });
    expect(o).to.deep.equal(minimal());
    expect(validateCreate(ingress, o)).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field and sets every field', () => {
    const complete = (): Obj => ({ apiVersion: ingress.apiVersion, ...fixture('ingress') });
    expect(decodeAndDefault(ingress, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(ingress.schema, complete())).to.deep.equal([]);
  });
});

describe('networking/v1 Ingress: validation (upstream ValidateIngressCreate; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['rules or a default backend', (o) => (o.spec = {}), ['spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified']],
    ['a default backend alone is enough', (o) => (o.spec = { defaultBackend: backend() }), []],
    ['pathType is required (and nothing else of the path is checked)', (o) => {
      delete path0(o).pathType;
      path0(o).backend = {};
    }, [`${P}.pathType: Required value: pathType must be specified`]],
    ['pathType must be known', (o) => (path0(o).pathType = 'Regex'), [`${P}.pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"`]],
    ['Exact and Prefix paths are absolute', (o) => Object.assign(path0(o), { pathType: 'Exact', path: 'api' }), [`${P}.path: Invalid value: "api": must be an absolute path`]],
    ['an empty Prefix path is not absolute', (o) => (path0(o).path = ''), [`${P}.path: Invalid value: "": must be an absolute path`]],
    ['an ImplementationSpecific path may be empty', (o) => Object.assign(path0(o), { pathType: 'ImplementationSpecific', path: '' }), []],
    ['an ImplementationSpecific path, when set, is absolute', (o) => Object.assign(path0(o), { pathType: 'ImplementationSpecific', path: 'x' }), [`${P}.path: Invalid value: "x": must be an absolute path`]],
    ['no dot segments in a Prefix path', (o) => (path0(o).path = '/a/../b'), [`${P}.path: Invalid value: "/a/../b": must not contain '/../'`]],
    ['no trailing dot segment', (o) => (path0(o).path = '/a/.'), [`${P}.path: Invalid value: "/a/.": cannot end with '/.'`]],
    ['a backend is required', (o) => (path0(o).backend = {}), [`${P}.backend: Invalid value: "": resource or service backend is required`]],
    ['not both a service and a resource', (o) => (path0(o).backend = { ...backend(), resource: { kind: 'Bucket', name: 'b' } }), [`${P}.backend: Invalid value: "": cannot set both resource and service backends`]],
    ['a service backend has a name', (o) => (path0(o).backend = backend('')), [`${P}.backend.service.name: Required value`]],
    ['a service name is a DNS-1035 label', (o) => (path0(o).backend = backend('1web')), [
      `${P}.backend.service.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    ]],
    ['a service port name or number is required', (o) => (path0(o).backend = backend('web', {})), [`${P}.backend: Required value: port name or number is required`]],
    ['not both a port name and number', (o) => (path0(o).backend = backend('web', { name: 'http', number: 80 })), [`${P}.backend: Invalid value: "": cannot set both port name & port number`]],
    ['a port number is in range', (o) => (path0(o).backend = backend('web', { number: 70000 })), [`${P}.backend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive`]],
    ['a port name is an IANA service name', (o) => (path0(o).backend = backend('web', { name: 'HTTP' })), [
      `${P}.backend.service.port.name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
      `${P}.backend.service.port.name: Invalid value: "HTTP": must contain at least one letter (a-z)`,
    ]],
    ['a resource backend names a kind and an object', (o) => (path0(o).backend = { resource: { kind: 'Bucket', name: 'a/b' } }), [`${P}.backend.resource.name: Invalid value: "a/b": may not contain '/'`]],
    ['an HTTP rule has paths', (o) => (((spec(o).rules as Obj[])[0]!.http as Obj).paths = []), ['spec.rules[0].http.paths: Required value']],
    ['a host is not an IP address', (o) => ((spec(o).rules as Obj[])[0]!.host = '10.0.0.1'), ['spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address']],
    ['a wildcard host is one leading *. label', (o) => ((spec(o).rules as Obj[])[0]!.host = 'foo.*.com'), [
      "spec.rules[0].host: Invalid value: \"foo.*.com\": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
    ['a wildcard host is accepted', (o) => ((spec(o).rules as Obj[])[0]!.host = '*.example.com'), []],
    ['TLS hosts are DNS names and Secret names subdomains', (o) => (spec(o).tls = [{ hosts: ['Web'], secretName: 'Bad_Secret' }]), [
      "spec.tls[0].hosts[0]: Invalid value: \"Web\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      "spec.tls[0].secretName: Invalid value: \"Bad_Secret\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
    ['ingressClassName is a DNS subdomain', (o) => (spec(o).ingressClassName = 'Nginx'), [
      "spec.ingressClassName: Invalid value: \"Nginx\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
    ['the class annotation must agree with ingressClassName', (o) => {
      spec(o).ingressClassName = 'nginx';
      (o.metadata as Obj).annotations = { [INGRESS_CLASS_ANNOTATION]: 'traefik' };
    }, [`annotations.${INGRESS_CLASS_ANNOTATION}: Invalid value: "traefik": must match \`ingressClassName\` when both are specified`]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('networking/v1 Ingress: update and status rules (upstream ValidateIngressUpdate, ingress strategy)', () => {
  const stored = (mutate: (o: Obj) => void = () => {}): Obj => {
    const o = variant(minimal(), mutate);
    decodeAndDefault(ingress, o);
    Object.assign(o.metadata as Obj, { uid: 'u1', resourceVersion: '5', generation: 1, creationTimestamp: '2024-05-01T10:00:00Z' });
    return o;
  };
  const updateErrors = (old: Obj, mutate: (o: Obj) => void): string[] => messages(ingressStrategy.validateUpdate(ctx, variant(old, mutate), old));

  it('an update may set a class annotation that differs from ingressClassName (a create-only rule)', () => {
    const old = stored((o) => (spec(o).ingressClassName = 'nginx'));
    expect(updateErrors(old, (o) => ((o.metadata as Obj).annotations = { [INGRESS_CLASS_ANNOTATION]: 'traefik' }))).to.deep.equal([]);
  });

  it('an update keeps accepting an invalid TLS Secret name the stored object has, and rejects a new one', () => {
    const bad = stored((o) => (spec(o).tls = [{ secretName: 'Bad_Secret' }]));
    expect(updateErrors(bad, (o) => ((o.metadata as Obj).labels = { a: 'b' }))).to.deep.equal([]);
    expect(updateErrors(stored(), (o) => (spec(o).tls = [{ secretName: 'Bad_Secret' }]))).to.have.length(1);
  });

  it('an update still validates the spec', () => {
    expect(updateErrors(stored(), (o) => delete path0(o).pathType)).to.deep.equal([`${P}.pathType: Required value: pathType must be specified`]);
  });

  it('create clears status and starts the generation; a spec change bumps it, a status change does not', () => {
    const created = variant(minimal(), (o) => (o.status = { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } }));
    ingressStrategy.prepareForCreate(ctx, created);
    expect(created.status).to.equal(undefined);
    expect((created.metadata as Obj).generation).to.equal(1);
    const old = stored();
    const next = variant(old, (o) => (spec(o).ingressClassName = 'nginx'));
    ingressStrategy.prepareForUpdate(ctx, next, old);
    expect((next.metadata as Obj).generation).to.equal(2);
    const statusOnly = variant(old, (o) => (o.status = { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } }));
    ingressStrategy.prepareForUpdate(ctx, statusOnly, old);
    expect((statusOnly.metadata as Obj).generation).to.equal(1);
    expect(statusOnly.status).to.deep.equal(old.status);
  });

  it('a status write changes only status and checks load balancer addresses', () => {
    const old = stored();
    const next = variant(old, (o) => {
      spec(o).ingressClassName = 'changed';
      o.status = { loadBalancer: { ingress: [{ ip: 'not-an-ip' }, { hostname: '10.0.0.1' }] } };
    });
    ingressStatusStrategy.prepareForUpdate(ctx, next, old);
    expect(spec(next).ingressClassName).to.equal(undefined);
    expect(messages(validateStatus(ingress, next, old))).to.deep.equal([
      'status.loadBalancer.ingress[0].ip: Invalid value: "not-an-ip": must be a valid IP address',
      'status.loadBalancer.ingress[1].hostname: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
    ]);
  });
});
