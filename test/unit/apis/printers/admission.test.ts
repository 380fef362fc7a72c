import { expect } from 'chai';
import { tableFor } from '../../../../lib/apimachinery/table/builder.js';
import { mutatingWebhookConfiguration, validatingAdmissionPolicy, validatingAdmissionPolicyBinding, validatingWebhookConfiguration } from '../../../../lib/apis/admissionregistration/v1/index.js';
import { apiService } from '../../../../lib/apis/apiregistration/v1/index.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { cellsOf, meta, NOW } from './helpers.js';

const columns = (kind: Parameters<typeof tableFor>[0], obj: Obj) => tableFor(kind, obj, { now: NOW }).columnDefinitions!.map((c) => [c.name, c.type]);

describe('apis/printers: admission registration and API registration (upstream v1.30 printers)', () => {
  it('webhook configurations: Name, Webhooks (count), Age', () => {
    for (const kind of [validatingWebhookConfiguration, mutatingWebhookConfiguration]) {
      const obj: Obj = { kind: kind.kind, metadata: meta('hooks', 90), webhooks: [{ name: 'a.b.c' }, { name: 'd.e.f' }] };
      expect(columns(kind, obj)).to.deep.equal([['Name', 'string'], ['Webhooks', 'integer'], ['Age', 'string']]);
      expect(cellsOf(kind, obj)).to.deep.equal(['hooks', 2, '90s']);
      expect(cellsOf(kind, { kind: kind.kind, metadata: meta('none', 30) })).to.deep.equal(['none', 0, '30s']);
    }
  });

  it('ValidatingAdmissionPolicy: Name, Validations (count), ParamKind (apiVersion/kind or <unset>), Age', () => {
    const P = validatingAdmissionPolicy;
    const obj: Obj = { kind: P.kind, metadata: meta('limit', 3600), spec: { paramKind: { apiVersion: 'rules.example.com/v1', kind: 'Limit' }, validations: [{ expression: 'true' }] } };
    expect(columns(P, obj)).to.deep.equal([['Name', 'string'], ['Validations', 'integer'], ['ParamKind', 'string'], ['Age', 'string']]);
    expect(cellsOf(P, obj)).to.deep.equal(['limit', 1, 'rules.example.com/v1/Limit', '60m']);
    expect(cellsOf(P, { kind: P.kind, metadata: meta('plain', 5), spec: {} })).to.deep.equal(['plain', 0, '<unset>', '5s']);
  });

  it('ValidatingAdmissionPolicyBinding: Name, PolicyName, ParamRef (namespace/name, */name, the selector in Go notation, or <unset>), Age', () => {
    const B = validatingAdmissionPolicyBinding;
    const row = (paramRef?: Obj) => cellsOf(B, { kind: B.kind, metadata: meta('bind', 60), spec: { policyName: 'limit', ...(paramRef ? { paramRef } : {}) } });
    expect(columns(B, { kind: B.kind, metadata: meta('bind'), spec: {} })).to.deep.equal([['Name', 'string'], ['PolicyName', 'string'], ['ParamRef', 'string'], ['Age', 'string']]);
    expect(row({ name: 'prod', namespace: 'rules' })).to.deep.equal(['bind', 'limit', 'rules/prod', '60s']);
    expect(row({ name: 'prod' })).to.deep.equal(['bind', 'limit', '*/prod', '60s']);
    expect(row({ selector: { matchLabels: { tier: 'prod', app: 'x' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['a', 'b'] }, { key: 'skip', operator: 'DoesNotExist' }] } })).to.deep.equal([
      'bind',
      'limit',
      '&LabelSelector{MatchLabels:map[string]string{app: x,tier: prod,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:env,Operator:In,Values:[a b],},LabelSelectorRequirement{Key:skip,Operator:DoesNotExist,Values:[],},},}',
      '60s',
    ]);
    expect(row({ selector: {} })[2]).to.equal('&LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}');
    expect(row()).to.deep.equal(['bind', 'limit', '<unset>', '60s']);
  });

  it('APIService: Name, Service (namespace/name or Local), Available (True, status (reason), status, or Unknown), Age', () => {
    const A = apiService;
    const obj = (spec: Obj, conditions?: Obj[]): Obj => ({ kind: 'APIService', metadata: meta('v1.x.example.com', 120), spec, ...(conditions ? { status: { conditions } } : {}) });
    expect(columns(A, obj({}))).to.deep.equal([['Name', 'string'], ['Service', 'string'], ['Available', 'string'], ['Age', 'string']]);
    expect(cellsOf(A, obj({ service: null }, [{ type: 'Available', status: 'True', reason: 'Local' }]))).to.deep.equal(['v1.x.example.com', 'Local', 'True', '2m']);
    expect(cellsOf(A, obj({ service: { namespace: 'm', name: 's' } }, [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }]))).to.deep.equal([
      'v1.x.example.com',
      'm/s',
      'False (MissingEndpoints)',
      '2m',
    ]);
    expect(cellsOf(A, obj({ service: { namespace: 'm', name: 's' } }, [{ type: 'Available', status: 'Unknown' }]))[2]).to.equal('Unknown');
    expect(cellsOf(A, obj({}))[2]).to.equal('Unknown');
  });
});
