/**
 * upgradeStoredObject (lib/apis/migration/stored.ts): values persisted in a removed version read
 * in the resource's kind through the storage codec (spec 001 § Removed API versions: persisted
 * objects remain reachable).
 */
import { expect } from 'chai';
import { canonicalize } from '../../../../lib/apimachinery/schema/canonical.js';
import { upgradeStoredObject } from '../../../../lib/apis/migration/stored.js';
import { ingress } from '../../../../lib/apis/networking/v1/ingress.js';
import { certificateSigningRequest } from '../../../../lib/apis/certificates/v1/certificate-signing-request.js';
import { ObjectCodec } from '../../../../lib/storage/etcd3/codec.js';

const oldIngress = { apiVersion: 'extensions/v1beta1', kind: 'Ingress', metadata: { name: 'i', namespace: 'default' }, spec: { backend: { serviceName: 'web', servicePort: 80 } } };

describe('upgradeStoredObject', () => {
  it('rewrites a removed version into the kind, leaving the stored object untouched', () => {
    const before = structuredClone(oldIngress);
    const out = upgradeStoredObject(ingress, oldIngress);
    expect(out).to.deep.equal({ apiVersion: 'networking.orch.io/v1', kind: 'Ingress', metadata: { name: 'i', namespace: 'default' }, spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } } });
    expect(oldIngress).to.deep.equal(before);
  });

  it('returns the same object when it is already in the kind, or the map does not lead to the kind', () => {
    const current = { apiVersion: 'networking.orch.io/v1', kind: 'Ingress', metadata: { name: 'i' } };
    expect(upgradeStoredObject(ingress, current)).to.equal(current);
    const other = { apiVersion: 'example.com/v1', kind: 'Ingress' };
    expect(upgradeStoredObject(ingress, other)).to.equal(other);
    const noVersion = { kind: 'Ingress' };
    expect(upgradeStoredObject(ingress, noVersion)).to.equal(noVersion);
  });

  it('an object its row cannot rewrite is returned as stored', () => {
    const csr = { apiVersion: 'certificates.orch.io/v1beta1', kind: 'CertificateSigningRequest', metadata: { name: 'c' }, spec: { request: 'UkVR' } };
    expect(upgradeStoredObject(certificateSigningRequest, csr)).to.equal(csr);
  });

  it('through the storage codec, a legacy value decodes in the kind', () => {
    const codec = new ObjectCodec((obj) => canonicalize(ingress.schema, upgradeStoredObject(ingress, obj)));
    const obj = codec.decode('/registry/networking.orch.io/ingresses/default/i', Buffer.from(JSON.stringify(oldIngress)), '7');
    expect(obj.apiVersion).to.equal('networking.orch.io/v1');
    expect((obj.spec as Record<string, unknown>).defaultBackend).to.deep.equal({ service: { name: 'web', port: { number: 80 } } });
    expect(obj.metadata).to.include({ resourceVersion: '7' });
  });
});
