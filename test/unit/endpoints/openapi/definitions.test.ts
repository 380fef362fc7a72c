import { expect } from 'chai';
import { ExtensionWriter } from '../../../../lib/endpoints/openapi/names.js';
import { buildSwagger } from '../../../../lib/endpoints/openapi/swagger.js';
import { buildGroupVersionDocument } from '../../../../lib/endpoints/openapi/v3.js';
import { servedInstaller } from './fixture.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const INFO = { title: 'Orch', version: 'v1.30.0' };
const EXT = new ExtensionWriter(true);
const D = '#/definitions/io.orch.';
const gvk = (group: string, kind: string, ...aliases: string[]) => {
  const v = [group, ...aliases].map((g) => ({ group: g, kind, version: 'v1' }));
  return { 'x-orch-group-version-kind': v, 'x-kubernetes-group-version-kind': v };
};

describe('openapi definitions from the kind definitions (issue #6 item 1)', () => {
  const installer = servedInstaller();
  const swagger: Doc = buildSwagger(installer.groupVersions(), INFO, EXT);
  const defs = swagger.definitions;
  const v3 = (path: string): Doc => {
    const gvs = installer.groupVersions();
    const gv = gvs.find((g) => (g.group === '' ? `api/${g.version}` : `apis/${g.group}/${g.version}`) === path)!;
    return buildGroupVersionDocument(gv, gvs, INFO, EXT);
  };

  it('has a definition for every kind and list kind, with its group-version-kinds (a vendor group\'s upstream alias after it)', () => {
    for (const [name, kind, ...groups] of [
      ['api.core.v1.Pod', 'Pod', ''],
      ['api.core.v1.PodList', 'PodList', ''],
      ['api.core.v1.Namespace', 'Namespace', ''],
      ['api.apps.v1.Deployment', 'Deployment', 'apps'],
      ['api.batch.v1.CronJobList', 'CronJobList', 'batch'],
      ['api.coordination.v1.Lease', 'Lease', 'coordination.orch.io', 'coordination.k8s.io'],
      ['api.rbac.v1.ClusterRoleBinding', 'ClusterRoleBinding', 'rbac.authorization.orch.io', 'rbac.authorization.k8s.io'],
    ]) {
      expect(defs[`io.orch.${name}`], name).to.deep.include(gvk(groups[0]!, kind!, ...groups.slice(1)));
    }
  });

  it('renders ConfigMap exactly', () => {
    expect(defs['io.orch.api.core.v1.ConfigMap']).to.deep.equal({
      description: 'ConfigMap holds configuration data for pods to consume.',
      type: 'object',
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { $ref: `${D}apimachinery.pkg.apis.meta.v1.ObjectMeta` },
        data: { type: 'object', additionalProperties: { type: 'string' } },
        binaryData: { type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
        immutable: { type: 'boolean' },
      },
      ...gvk('', 'ConfigMap'),
    });
  });

  it('renders a list kind with required items and list metadata', () => {
    expect(defs['io.orch.api.core.v1.ConfigMapList']).to.deep.equal({
      type: 'object',
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { $ref: `${D}apimachinery.pkg.apis.meta.v1.ListMeta` },
        items: { type: 'array', items: { $ref: `${D}api.core.v1.ConfigMap` } },
      },
      required: ['items'],
      ...gvk('', 'ConfigMapList'),
    });
  });

  it('renders times as references to Time / MicroTime with the field description beside the $ref', () => {
    expect(defs['io.orch.api.coordination.v1.LeaseSpec']).to.deep.equal({
      type: 'object',
      properties: {
        holderIdentity: { description: 'Identity of the current holder.', type: 'string' },
        leaseDurationSeconds: { description: 'Seconds candidates wait after the last renewal before taking over.', type: 'integer', format: 'int32' },
        acquireTime: { $ref: `${D}apimachinery.pkg.apis.meta.v1.MicroTime`, description: 'When the current holder acquired the lease.' },
        renewTime: { $ref: `${D}apimachinery.pkg.apis.meta.v1.MicroTime`, description: 'When the current holder last renewed the lease.' },
        leaseTransitions: { description: 'How many times the lease changed holders.', type: 'integer', format: 'int32' },
      },
    });
    expect(defs['io.orch.apimachinery.pkg.apis.meta.v1.MicroTime']).to.include({ type: 'string', format: 'date-time' });
    expect(defs['io.orch.apimachinery.pkg.apis.meta.v1.Time']).to.include({ type: 'string', format: 'date-time' });
    expect(defs['io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta'].properties.creationTimestamp).to.deep.equal({ $ref: `${D}apimachinery.pkg.apis.meta.v1.Time` });
  });

  it('renders quantities and int-or-strings as upstream (string; format int-or-string with the extension)', () => {
    const q = defs['io.orch.apimachinery.pkg.api.resource.Quantity'];
    expect(Object.keys(q).sort()).to.deep.equal(['description', 'type']);
    expect(q.type).to.equal('string');
    const ios = defs['io.orch.apimachinery.pkg.util.intstr.IntOrString'];
    expect(ios).to.include({ type: 'string', format: 'int-or-string', 'x-orch-int-or-string': true });
    expect(defs['io.orch.api.core.v1.ResourceRequirements'].properties.limits).to.deep.include({
      type: 'object',
      additionalProperties: { $ref: `${D}apimachinery.pkg.api.resource.Quantity` },
    });
    expect(defs['io.orch.api.apps.v1.RollingUpdateDeployment'].properties.maxSurge).to.deep.equal({
      $ref: `${D}apimachinery.pkg.util.intstr.IntOrString`,
      description: 'Pods that may be created above the desired count (number or percentage).',
    });
  });

  it('marks containers as merged by name (patch strategy, upstream names too) and finalizers as a set', () => {
    expect(defs['io.orch.api.core.v1.PodSpec'].properties.containers).to.deep.equal({
      description: 'The containers of the pod; at least one.',
      type: 'array',
      items: { $ref: `${D}api.core.v1.Container` },
      'x-orch-patch-strategy': 'merge',
      'x-kubernetes-patch-strategy': 'merge',
      'x-orch-patch-merge-key': 'name',
      'x-kubernetes-patch-merge-key': 'name',
    });
    const meta = defs['io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta'].properties;
    expect(meta.finalizers).to.deep.equal({
      type: 'array',
      items: { type: 'string' },
      'x-orch-list-type': 'set',
      'x-orch-patch-strategy': 'merge',
      'x-kubernetes-patch-strategy': 'merge',
    });
    expect(meta.ownerReferences).to.deep.equal({
      type: 'array',
      items: { $ref: `${D}apimachinery.pkg.apis.meta.v1.OwnerReference` },
      'x-orch-list-type': 'map',
      'x-orch-list-map-keys': ['uid'],
      'x-orch-patch-strategy': 'merge',
      'x-kubernetes-patch-strategy': 'merge',
      'x-orch-patch-merge-key': 'uid',
      'x-kubernetes-patch-merge-key': 'uid',
    });
    expect(meta.labels).to.deep.equal({ type: 'object', additionalProperties: { type: 'string' } });
  });

  it('carries required fields, enums, defaults, atomic structs and struct patch strategies', () => {
    const port = defs['io.orch.api.core.v1.ContainerPort'];
    expect(port.required).to.deep.equal(['containerPort']);
    expect(port.properties.protocol).to.deep.equal({ type: 'string', enum: ['SCTP', 'TCP', 'UDP'], default: 'TCP' });
    expect(defs['io.orch.apimachinery.pkg.apis.meta.v1.OwnerReference']).to.include({ 'x-orch-map-type': 'atomic' });
    expect(defs['io.orch.apimachinery.pkg.apis.meta.v1.OwnerReference'].required).to.deep.equal(['apiVersion', 'kind', 'name', 'uid']);
    expect(defs['io.orch.api.apps.v1.DeploymentSpec'].properties.strategy).to.deep.equal({
      $ref: `${D}api.apps.v1.DeploymentStrategy`,
      default: {},
      'x-orch-patch-strategy': 'retainKeys',
      'x-kubernetes-patch-strategy': 'retainKeys',
    });
  });

  it('gives the meta types of operations their group-version-kinds in every served group version', () => {
    expect(defs['io.orch.apimachinery.pkg.apis.meta.v1.Status']).to.deep.include(gvk('', 'Status'));
    const deleteGVKs = defs['io.orch.apimachinery.pkg.apis.meta.v1.DeleteOptions']['x-orch-group-version-kind'];
    const served = installer.groupVersions().map((g) => ({ group: g.group, kind: 'DeleteOptions', version: g.version }));
    expect(served.map((g) => g.group)).to.include.members(['', 'apps', 'batch', 'coordination.orch.io', 'rbac.authorization.orch.io', 'coordination.k8s.io', 'rbac.authorization.k8s.io']);
    expect(deleteGVKs).to.deep.equal(served);
    expect(defs['io.orch.apimachinery.pkg.apis.meta.v1.WatchEvent'].required).to.deep.equal(['type', 'object']);
  });

  it('defines every type it references and references every type it defines', () => {
    const text = JSON.stringify(swagger);
    const refs = new Set([...text.matchAll(/"#\/definitions\/([^"]+)"/g)].map((m) => m[1]));
    expect([...refs].filter((r) => !(r! in defs))).to.deep.equal([]);
    expect(Object.keys(defs).filter((d) => !refs.has(d))).to.deep.equal([]);
    expect(Object.keys(defs)).to.deep.equal([...Object.keys(defs)].sort());
  });

  it('v3: component schemas wrap a $ref with siblings in allOf, default struct items to {}, and use oneOf for quantities and int-or-strings', () => {
    const doc = v3('api/v1');
    const s = doc.components.schemas;
    expect(s['io.orch.api.core.v1.Pod'].properties.spec).to.deep.equal({
      allOf: [{ $ref: '#/components/schemas/io.orch.api.core.v1.PodSpec' }],
      description: 'The desired behaviour of the pod.',
    });
    expect(s['io.orch.api.core.v1.PodSpec'].properties.containers.items).to.deep.equal({ allOf: [{ $ref: '#/components/schemas/io.orch.api.core.v1.Container' }], default: {} });
    expect(s['io.orch.apimachinery.pkg.util.intstr.IntOrString']).to.include({ format: 'int-or-string', 'x-orch-int-or-string': true });
    expect(s['io.orch.apimachinery.pkg.util.intstr.IntOrString'].oneOf).to.deep.equal([{ type: 'integer' }, { type: 'string' }]);
    expect(s['io.orch.apimachinery.pkg.api.resource.Quantity'].oneOf).to.deep.equal([{ type: 'string' }, { type: 'number' }]);
    expect(s).to.not.have.property('io.orch.api.apps.v1.Deployment');
    const text = JSON.stringify(doc);
    const refs = new Set([...text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]));
    expect([...refs].filter((r) => !(r! in s))).to.deep.equal([]);
  });
});
