import { expect } from 'chai';
import { DICTIONARY_REFRESH, VersionPacker } from '../../../../lib/storage/cacher/packed-version.js';
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

describe('storage/cacher/packed-version', () => {
  it('gives back an object equal to the one packed, deflated against the resource\'s dictionary to a small part of its JSON', () => {
    const packer = new VersionPacker();
    packer.pack(pod(0));
    for (let i = 1; i < 50; i++) {
      const p = packer.pack(pod(i));
      expect(p.object()).to.deep.equal(pod(i));
      expect(p.size, `version ${i}`).to.be.below(JSON.stringify(pod(i)).length / 4);
    }
  });

  it('keeps non-ASCII text, and an object longer than deflate\'s 32 KiB window, intact', () => {
    const packer = new VersionPacker();
    const big: StoredObject = { kind: 'ConfigMap', metadata: { name: 'big' }, data: { a: 'ü€😀 '.repeat(20_000), b: 'x'.repeat(50_000) } };
    packer.pack(big);
    const again = packer.pack({ ...big, metadata: { name: 'big', resourceVersion: '2' } });
    expect(again.object()).to.deep.equal({ ...big, metadata: { name: 'big', resourceVersion: '2' } });
    expect(again.size).to.be.below(JSON.stringify(big).length / 50);
  });

  it('holds a version that deflating does not make smaller as its JSON', () => {
    const packer = new VersionPacker();
    packer.pack(pod(0));
    const tiny = packer.pack({});
    expect(tiny.object()).to.deep.equal({});
    expect(tiny.size).to.equal(2);
  });

  it('takes a new dictionary every DICTIONARY_REFRESH versions; versions packed against the old one still unpack', () => {
    const packer = new VersionPacker();
    const first = packer.pack(pod(0));
    const before = packer.pack(pod(1));
    for (let i = 2; i < DICTIONARY_REFRESH; i++) packer.pack(pod(2));
    // The objects change shape: the next dictionary is one of the new shape.
    const reshaped = (i: number): StoredObject => ({ kind: 'Lease', metadata: { name: `lease-${i}`, namespace: 'kube-node-lease' }, spec: { holderIdentity: `node-${i}`, renewTime: `2026-12-02T16:0${i % 10}:00.000000Z` } });
    const refreshed = packer.pack(reshaped(0));
    const after = packer.pack(reshaped(1));
    expect(first.object()).to.deep.equal(pod(0));
    expect(before.object()).to.deep.equal(pod(1));
    expect(refreshed.object()).to.deep.equal(reshaped(0));
    expect(after.object()).to.deep.equal(reshaped(1));
    expect(after.size, 'deflated against the new dictionary').to.be.below(JSON.stringify(reshaped(1)).length / 3);
  });

  it('parses once for every reader while one holds the object', () => {
    const p = new VersionPacker().pack(pod(3));
    const a = p.object();
    expect(p.object()).to.equal(a);
  });
});
