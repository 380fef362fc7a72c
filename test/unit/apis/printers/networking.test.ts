import { expect } from 'chai';
import type { Obj } from '../../../../lib/apis/define.js';
import { endpointSlice } from '../../../../lib/apis/discovery/v1/index.js';
import { ingress, ingressClass, networkPolicy } from '../../../../lib/apis/networking/v1/index.js';
import { runtimeClass } from '../../../../lib/apis/node/v1/index.js';
import { priorityClass } from '../../../../lib/apis/scheduling/v1/index.js';
import { cellsOf, meta } from './helpers.js';

const columnsOf = (printer: { columns: readonly { name: string; type: string; priority: number }[] }) => printer.columns.map((c) => [c.name, c.type, c.priority]);

describe('apis/printers: Ingress', () => {
  const ing = (spec: Obj, status: Obj = {}): Obj => ({ kind: 'Ingress', metadata: meta('web', 90), spec, status });
  const rule = (host: string): Obj => ({ host, http: { paths: [] } });

  it('columns Name, Class, Hosts, Address, Ports, Age as upstream', () => {
    expect(columnsOf(ingress.printerColumns!)).to.deep.equal([
      ['Name', 'string', 0],
      ['Class', 'string', 0],
      ['Hosts', 'string', 0],
      ['Address', 'string', 0],
      ['Ports', 'string', 0],
      ['Age', 'string', 0],
    ]);
  });

  it('a classed ingress with TLS and load balancer addresses (sorted, unique, IP over hostname)', () => {
    const status = { loadBalancer: { ingress: [{ ip: '192.0.2.9' }, { hostname: 'lb.example.com' }, { ip: '192.0.2.1', hostname: 'x' }, { ip: '192.0.2.9' }] } };
    const obj = ing({ ingressClassName: 'nginx', tls: [{ secretName: 's' }], rules: [rule('a.example.com'), rule('b.example.com')] }, status);
    expect(cellsOf(ingress, obj)).to.deep.equal(['web', 'nginx', 'a.example.com,b.example.com', '192.0.2.1,192.0.2.9,lb.example.com', '80, 443', '90s']);
  });

  it('no class, no host, no address, no TLS', () => {
    expect(cellsOf(ingress, ing({ defaultBackend: {} }))).to.deep.equal(['web', '<none>', '*', '', '80', '90s']);
    expect(cellsOf(ingress, ing({ rules: [rule('')] }))[2]).to.equal('*');
  });

  it('Hosts: three hosts, then + N more... (N counted in rules)', () => {
    const rules = ['a', 'b', '', 'c', 'd', 'e'].map(rule);
    expect(cellsOf(ingress, ing({ rules }))[2]).to.equal('a,b,c + 3 more...');
  });
});

describe('apis/printers: IngressClass', () => {
  const ic = (spec: Obj): Obj => ({ kind: 'IngressClass', metadata: meta('nginx', 60), spec });

  it('columns Name, Controller, Parameters, Age; parameters as Kind[.apiGroup]/name', () => {
    expect(columnsOf(ingressClass.printerColumns!)).to.deep.equal([['Name', 'string', 0], ['Controller', 'string', 0], ['Parameters', 'string', 0], ['Age', 'string', 0]]);
    expect(cellsOf(ingressClass, ic({ controller: 'example.com/nginx', parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p' } }))).to.deep.equal([
      'nginx',
      'example.com/nginx',
      'Params.k8s.example.com/p',
      '60s',
    ]);
    expect(cellsOf(ingressClass, ic({ controller: 'example.com/nginx', parameters: { kind: 'ConfigMap', name: 'p' } }))[2]).to.equal('ConfigMap/p');
    expect(cellsOf(ingressClass, ic({ controller: 'example.com/nginx' }))[2]).to.equal('<none>');
  });
});

describe('apis/printers: NetworkPolicy', () => {
  it('columns Name, Pod-Selector, Age; an empty selector prints <none>', () => {
    expect(columnsOf(networkPolicy.printerColumns!)).to.deep.equal([['Name', 'string', 0], ['Pod-Selector', 'string', 0], ['Age', 'string', 0]]);
    const np = (podSelector: Obj): Obj => ({ kind: 'NetworkPolicy', metadata: meta('db', 120), spec: { podSelector } });
    expect(cellsOf(networkPolicy, np({ matchLabels: { role: 'db' }, matchExpressions: [{ key: 'env', operator: 'Exists' }] }))).to.deep.equal(['db', 'env,role=db', '2m']);
    expect(cellsOf(networkPolicy, np({}))[1]).to.equal('<none>');
  });
});

describe('apis/printers: EndpointSlice', () => {
  const eps = (ports: Obj[], endpoints: Obj[]): Obj => ({ kind: 'EndpointSlice', metadata: meta('web-x', 30), addressType: 'IPv4', ports, endpoints });

  it('columns Name, AddressType, Ports, Endpoints, Age', () => {
    expect(columnsOf(endpointSlice.printerColumns!)).to.deep.equal([
      ['Name', 'string', 0],
      ['AddressType', 'string', 0],
      ['Ports', 'string', 0],
      ['Endpoints', 'string', 0],
      ['Age', 'string', 0],
    ]);
  });

  it('ports by number, else by name, else *; addresses of every endpoint; three at most', () => {
    const ports = [{ name: 'http', port: 80 }, { name: 'metrics' }, {}, { port: 9000 }];
    const endpoints = [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3', '10.0.0.4', '10.0.0.5'] }];
    expect(cellsOf(endpointSlice, eps(ports, endpoints))).to.deep.equal(['web-x', 'IPv4', '80,metrics,* + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...', '30s']);
  });

  it('no ports or endpoints print <unset>', () => {
    expect(cellsOf(endpointSlice, eps([], [])).slice(2, 4)).to.deep.equal(['<unset>', '<unset>']);
  });
});

describe('apis/printers: PriorityClass and RuntimeClass', () => {
  it('PriorityClass: Name, Value (integer), Global-Default (boolean), Age', () => {
    expect(columnsOf(priorityClass.printerColumns!)).to.deep.equal([['Name', 'string', 0], ['Value', 'integer', 0], ['Global-Default', 'boolean', 0], ['Age', 'string', 0]]);
    expect(cellsOf(priorityClass, { kind: 'PriorityClass', metadata: meta('high', 3600), value: 1000, globalDefault: true })).to.deep.equal(['high', 1000, true, '60m']);
    expect(cellsOf(priorityClass, { kind: 'PriorityClass', metadata: meta('zero', 3600) })).to.deep.equal(['zero', 0, false, '60m']);
  });

  it('RuntimeClass: Name, Handler, Age', () => {
    expect(columnsOf(runtimeClass.printerColumns!)).to.deep.equal([['Name', 'string', 0], ['Handler', 'string', 0], ['Age', 'string', 0]]);
    expect(cellsOf(runtimeClass, { kind: 'RuntimeClass', metadata: meta('gvisor', 5), handler: 'runsc' })).to.deep.equal(['gvisor', 'runsc', '5s']);
  });
});
