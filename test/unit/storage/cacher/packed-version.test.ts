import { expect } from 'chai';
import { BATCH_BYTES, BATCH_VERSIONS, DICTIONARY_REFRESH, VersionPacker } from '../../../../lib/storage/cacher/packed-version.js';
import type { StoredObject } from '../../../../lib/storage/interface.js';

/** A Pod-like object; `i` changes its name, its status message and its resourceVersion. */
function pod(i: number): StoredObject {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: `web-${i}`, namespace: 'default', uid: `6b1f0c2e-${String(i).padStart(4, '0')}-4a51-9d55-0c3e2a7b8f10`, resourceVersion: String(1000 + i), labels: { app: 'web', tier: 'frontend' } },
    spec: { nodeName: `node-${i % 7}`, containers: [{ name: 'app', image: 'registry.example/web:1.2.3', args: ['--port=8080', '--log-level=info'], resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-12-02T16:01:44Z', message: `probe ${i}` }] },
  };
}

const jsonLength = (o: StoredObject) => Buffer.byteLength(JSON.stringify(o));

describe('storage/cacher/packed-version', () => {
  it('holds a version as its JSON until its batch is full, then as its share of the batch deflated against the resource\'s dictionary', () => {
    const packer = new VersionPacker();
    const packed = Array.from({ length: BATCH_VERSIONS + 3 }, (_, i) => packer.pack(pod(i)));
    packed.forEach((p, i) => {
      expect(p.object(), `version ${i}`).to.deep.equal(pod(i));
      expect(p.deflated, `version ${i}`).to.equal(i < BATCH_VERSIONS);
      if (p.deflated) expect(p.size, `version ${i}`).to.be.below(jsonLength(pod(i)) / 8);
      else expect(p.size).to.equal(jsonLength(pod(i)));
    });
  });

  it('keeps non-ASCII text, and a version longer than deflate\'s 32 KiB window, intact', () => {
    const packer = new VersionPacker();
    const big: StoredObject = { kind: 'ConfigMap', metadata: { name: 'big' }, data: { a: 'ü€😀 '.repeat(20_000), b: 'x'.repeat(50_000) } };
    const bigAgain: StoredObject = { ...big, metadata: { name: 'big', resourceVersion: '2' } };
    const packed = [packer.pack(big), packer.pack(bigAgain)];
    for (let i = 2; i < BATCH_VERSIONS; i++) packed.push(packer.pack(pod(i)));
    expect(packed[1]!.deflated).to.equal(true);
    expect(packed[0]!.object()).to.deep.equal(big);
    expect(packed[1]!.object()).to.deep.equal(bigAgain);
    expect(packed[5]!.object()).to.deep.equal(pod(5));
    expect(packed[1]!.size).to.be.below(jsonLength(bigAgain) / 50);
  });

  it('takes a new dictionary every DICTIONARY_REFRESH versions; versions deflated against the old one still unpack', () => {
    const packer = new VersionPacker();
    const first = packer.pack(pod(0));
    for (let i = 1; i < DICTIONARY_REFRESH; i++) packer.pack(pod(i % 50));
    // The objects change shape: the next dictionary is one of the new shape.
    const lease = (i: number): StoredObject => ({ kind: 'Lease', metadata: { name: `lease-${i}`, namespace: 'kube-node-lease' }, spec: { holderIdentity: `node-${i}`, renewTime: `2026-12-02T16:0${i % 10}:00.000000Z` } });
    const leases = Array.from({ length: BATCH_VERSIONS }, (_, i) => packer.pack(lease(i)));
    expect(first.deflated && leases[0]!.deflated).to.equal(true);
    expect(first.object()).to.deep.equal(pod(0));
    leases.forEach((p, i) => expect(p.object()).to.deep.equal(lease(i)));
    expect(leases[9]!.size, 'deflated against the new dictionary').to.be.below(jsonLength(lease(9)) / 5);
  });

  it('deflates a batch once its JSON reaches BATCH_BYTES, however few versions it has', () => {
    const packer = new VersionPacker();
    const large = (i: number): StoredObject => ({ kind: 'ConfigMap', metadata: { name: `large-${i}` }, data: { v: `${i}`.repeat(BATCH_BYTES / 2) } });
    const first = packer.pack(large(1));
    expect(first.deflated).to.equal(false);
    const second = packer.pack(large(2));
    expect(first.deflated && second.deflated).to.equal(true);
    expect(second.object()).to.deep.equal(large(2));
  });

  it('parses once for every reader while one holds the object', () => {
    const packer = new VersionPacker();
    const packed = Array.from({ length: BATCH_VERSIONS }, (_, i) => packer.pack(pod(i)));
    const a = packed[3]!.object();
    expect(packed[3]!.object()).to.equal(a);
  });
});
