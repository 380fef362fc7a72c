import { expect } from 'chai';
import { FieldPath, fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';
import { compileSchemaRules, evaluateSchemaRules, validateSchemaRules } from '../../../../lib/apiextensions/cel/index.js';
import { trafficRouteSchema } from './fixtures/traffic-route.js';

const good = {
  apiVersion: 'net.example.com/v1',
  kind: 'TrafficRoute',
  metadata: { name: 'r1', uid: 'u1', labels: { team: 'a' } },
  spec: {
    className: 'edge',
    hostnames: ['a.example.com', '*.example.com'],
    parentRefs: [{ name: 'gw', port: 443, section: 'https' }],
    rules: [
      {
        matches: [{ path: { type: 'Prefix', value: '/api' }, headers: [{ name: 'x-env', value: 'prod' }] }],
        backendRefs: [{ name: 'svc', port: 80, kind: 'Service', weight: 1 }],
        timeouts: { request: '10s', backendRequest: '5s' },
        retries: '50%',
      },
    ],
    tls: { mode: 'Terminate', certificateRefs: [{ name: 'cert' }] },
    bandwidth: '1G',
    callbackURL: 'https://hooks.example.com/cb',
    labels: { tier: 'web' },
    template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'm' }, data: { a: 'b' } },
  },
  status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }] },
};

const bad = {
  apiVersion: 'net.example.com/v1',
  kind: 'TrafficRoute',
  metadata: { name: 'a-very-long-name-that-is-more-than-forty-characters' },
  spec: {
    className: 'edge',
    hostnames: ['A.example.com', '*foo.example.com'],
    parentRefs: [{ name: 'gw', port: 70000 }],
    rules: [
      {
        matches: [{ path: { type: 'Exact', value: 'api/' }, headers: [{ name: 'x' }, { name: 'x' }] }],
        backendRefs: [{ name: 'svc', kind: 'Service', weight: 0 }],
        timeouts: { request: '5s', backendRequest: '10s' },
        retries: 7,
      },
    ],
    tls: { mode: 'Passthrough' },
    bandwidth: '20G',
    callbackURL: 'http://hooks.example.com',
    labels: { tier: 'web' },
    template: { apiVersion: 'v1', kind: 'Secret' },
  },
  status: { observedGeneration: -1, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2200-01-01T00:00:00Z' }] },
};

describe('apiextensions/cel fixture: a routing CRD with 26 rules', () => {
  const compiled = compileSchemaRules(trafficRouteSchema);

  it('passes the CRD-write checks, costs included', () => {
    const path = FieldPath.of('spec', 'versions').index(0).child('schema', 'openAPIV3Schema');
    expect(validateSchemaRules(trafficRouteSchema, path).map(fieldErrorString)).to.deep.equal([]);
  });

  it('compiles every rule, four of them transition rules', () => {
    expect(compiled.rules).to.have.length(26);
    expect(compiled.rules.filter((r) => r.error || r.messageExpressionError)).to.deep.equal([]);
    expect(compiled.rules.filter((r) => r.usesOldSelf)).to.have.length(4);
  });

  it('accepts a valid object', () => {
    expect(evaluateSchemaRules(compiled, good, undefined)).to.deep.equal({ errors: [], warnings: [] });
  });

  it('reports every broken rule of an invalid object, in schema order', () => {
    const out = evaluateSchemaRules(compiled, bad, undefined);
    expect(out.errors.map(fieldErrorString)).to.deep.equal([
      '<nil>: Invalid value: "object": name must be at most 40 characters',
      'spec.tls.mode: Forbidden: timeouts need TLS termination',
      'spec.hostnames: Invalid value: "array": a wildcard must be a whole label',
      'spec.hostnames[0]: Invalid value: "string": hostnames are lower case',
      'spec.parentRefs[0]: Invalid value: "object": port must be a valid port number',
      'spec.rules[0].matches[0].path: Invalid value: "object": path must be absolute',
      'spec.rules[0].matches[0].path: Invalid value: "object": exact paths must not end with a slash',
      'spec.rules[0].matches[0].headers: Invalid value: "array": header names must be unique',
      'spec.rules[0].backendRefs: Invalid value: "array": at least one backend must have a weight',
      'spec.rules[0].backendRefs[0].port: Required value: port is required for Service backends',
      'spec.rules[0].timeouts: Invalid value: "object": backendRequest must not exceed request',
      'spec.rules[0].retries: Invalid value: "": retries: at most 5, or a percentage',
      'spec.bandwidth: Invalid value: "string": bandwidth must be a quantity below 10G',
      'spec.callbackURL: Invalid value: "string": callbackURL must be an https URL',
      'spec.template: Invalid value: "object": template must be a ConfigMap',
      'status.observedGeneration: Invalid value: "integer": failed rule: self >= 0',
      'status.conditions[0]: Invalid value: "object": lastTransitionTime is too far ahead',
    ]);
    expect(out.warnings).to.deep.equal([]);
  });

  it('applies transition rules and ratchets unchanged values on update', () => {
    const old = {
      ...good,
      spec: { className: 'old', parentRefs: [{ name: 'gw', section: 's' }], tls: { mode: 'Terminate', certificateRefs: [{ name: 'c' }] }, bandwidth: '20G' },
      status: { conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2024-01-01T00:00:00Z' }] },
    };
    const next = {
      ...good,
      spec: { className: 'new', parentRefs: [{ name: 'gw' }], bandwidth: '20G' },
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }] },
    };
    const out = evaluateSchemaRules(compiled, next, old);
    expect(out.errors.map(fieldErrorString)).to.deep.equal([
      'spec: Invalid value: "object": tls cannot be removed',
      'spec.className: Invalid value: "string": className is immutable',
      'spec.parentRefs[0]: Invalid value: "object": section cannot be removed',
      'status.conditions[0]: Invalid value: "object": lastTransitionTime must change with status',
    ]);
    expect(out.warnings).to.deep.equal(['spec.bandwidth: Invalid value: "string": bandwidth must be a quantity below 10G']);
  });
});
