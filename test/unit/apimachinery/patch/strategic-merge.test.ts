import { expect } from 'chai';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { applyStrategicMergePatch } from '../../../../lib/apimachinery/patch/strategic-merge.js';
import { deployment } from '../../../../lib/apis/apps/v1/index.js';
import { pod } from '../../../../lib/apis/core/v1/workloads.js';

type Obj = Record<string, unknown>;

const podWith = (spec: Obj, metadata: Obj = { name: 'p' }): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata, spec });

interface Case {
  name: string;
  original: Obj;
  patch: Obj;
  expected: Obj;
}

const cases: Case[] = [
  {
    name: 'merges containers by name, keeping positions and appending new ones',
    original: podWith({ containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] }),
    patch: { spec: { containers: [{ name: 'c', image: 'w' }, { name: 'b', image: 'z' }] } },
    expected: podWith({ containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'z' }, { name: 'c', image: 'w' }] }),
  },
  {
    name: 'deletes a list element with $patch: delete',
    original: podWith({ containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] }),
    patch: { spec: { containers: [{ name: 'a', $patch: 'delete' }] } },
    expected: podWith({ containers: [{ name: 'b', image: 'y' }] }),
  },
  {
    name: 'replaces a whole list with a $patch: replace element',
    original: podWith({ containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] }),
    patch: { spec: { containers: [{ $patch: 'replace' }, { name: 'c', image: 'z' }] } },
    expected: podWith({ containers: [{ name: 'c', image: 'z' }] }),
  },
  {
    name: 'replaces a map with $patch: replace',
    original: podWith({}, { name: 'p', labels: { a: '1', b: '2' } }),
    patch: { metadata: { labels: { $patch: 'replace', c: '3' } } },
    expected: podWith({}, { name: 'p', labels: { c: '3' } }),
  },
  {
    name: 'deletes a map with $patch: delete',
    original: podWith({}, { name: 'p', labels: { a: '1' } }),
    patch: { metadata: { labels: { $patch: 'delete' } } },
    expected: podWith({}, { name: 'p' }),
  },
  {
    name: 'removes a key given null, like a merge patch',
    original: podWith({ nodeName: 'n1', hostname: 'h' }),
    patch: { spec: { nodeName: null } },
    expected: podWith({ hostname: 'h' }),
  },
  {
    name: 'unions a primitive list with patch strategy merge (finalizers)',
    original: podWith({}, { name: 'p', finalizers: ['a', 'b'] }),
    patch: { metadata: { finalizers: ['c', 'a'] } },
    expected: podWith({}, { name: 'p', finalizers: ['a', 'b', 'c'] }),
  },
  {
    name: 'removes values from a primitive list with $deleteFromPrimitiveList',
    original: podWith({}, { name: 'p', finalizers: ['a', 'b', 'c'] }),
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } },
    expected: podWith({}, { name: 'p', finalizers: ['a', 'c'] }),
  },
  {
    name: 'replaces an atomic list (container args)',
    original: podWith({ containers: [{ name: 'a', args: ['1', '2'] }] }),
    patch: { spec: { containers: [{ name: 'a', args: ['3'] }] } },
    expected: podWith({ containers: [{ name: 'a', args: ['3'] }] }),
  },
  {
    name: 'merges ports by containerPort and env by name, deleting an env var',
    original: podWith({
      containers: [{ name: 'a', ports: [{ containerPort: 80, name: 'http' }], env: [{ name: 'X', value: '1' }, { name: 'Y', value: '2' }] }],
    }),
    patch: { spec: { containers: [{ name: 'a', ports: [{ containerPort: 80, name: 'web' }, { containerPort: 443 }], env: [{ name: 'X', $patch: 'delete' }] }] } },
    expected: podWith({ containers: [{ name: 'a', ports: [{ containerPort: 80, name: 'web' }, { containerPort: 443 }], env: [{ name: 'Y', value: '2' }] }] }),
  },
  {
    name: 'orders merged elements with $setElementOrder',
    original: podWith({ containers: [{ name: 'a' }, { name: 'b' }] }),
    patch: { spec: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'b' }, { name: 'a' }], containers: [{ name: 'c' }] } },
    expected: podWith({ containers: [{ name: 'c' }, { name: 'b' }, { name: 'a' }] }),
  },
  {
    name: 'keeps only the listed keys with $retainKeys (volume sources)',
    original: podWith({ volumes: [{ name: 'v', emptyDir: {} }] }),
    patch: { spec: { volumes: [{ name: 'v', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/data' } }] } },
    expected: podWith({ volumes: [{ name: 'v', hostPath: { path: '/data' } }] }),
  },
  {
    name: 'deletes every element with the key, as upstream, and a later element with that key is appended',
    original: podWith({ containers: [{ name: 'a', image: '1' }, { name: 'b' }, { name: 'a', image: '2' }] }),
    patch: { spec: { containers: [{ name: 'a', $patch: 'delete' }, { name: 'c' }, { name: 'a', image: '3' }] } },
    expected: podWith({ containers: [{ name: 'b' }, { name: 'c' }, { name: 'a', image: '3' }] }),
  },
  {
    name: 'merges into the first element with the key, and a key repeated in the patch merges into what it added',
    original: podWith({ containers: [{ name: 'a', image: '1' }, { name: 'a', image: '2' }] }),
    patch: { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'n', image: 'y' }, { name: 'n', workingDir: '/w' }] } },
    expected: podWith({ containers: [{ name: 'a', image: 'x' }, { name: 'a', image: '2' }, { name: 'n', image: 'y', workingDir: '/w' }] }),
  },
  {
    name: 'appends to a set-merged primitive list only the values not yet present (finalizers)',
    original: podWith({}, { name: 'p', finalizers: ['a', 'b'] }),
    patch: { metadata: { finalizers: ['b', 'c', 'c', 'd'] } },
    expected: podWith({}, { name: 'p', finalizers: ['a', 'b', 'c', 'd'] }),
  },
];

describe('strategic merge patch (spec 000 § Patch content types)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const originalCopy = structuredClone(c.original);
      const patchCopy = structuredClone(c.patch);
      expect(applyStrategicMergePatch(c.original, c.patch, pod.schema)).to.deep.equal(c.expected);
      expect(c.original, 'original untouched').to.deep.equal(originalCopy);
      expect(c.patch, 'patch untouched').to.deep.equal(patchCopy);
    });
  }

  it('switches a Deployment strategy to Recreate with $retainKeys, dropping rollingUpdate', () => {
    const original = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } } };
    const patch = { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } };
    expect(applyStrategicMergePatch(original, patch, deployment.schema)).to.deep.equal({ spec: { strategy: { type: 'Recreate' } } });
  });

  it('merges a Deployment template container by name', () => {
    const original = { spec: { template: { spec: { containers: [{ name: 'web', image: 'a:1' }, { name: 'side', image: 's:1' }] } } } };
    const patch = { spec: { template: { spec: { containers: [{ name: 'web', image: 'a:2' }] } } } };
    expect(applyStrategicMergePatch(original, patch, deployment.schema)).to.deep.equal({
      spec: { template: { spec: { containers: [{ name: 'web', image: 'a:2' }, { name: 'side', image: 's:1' }] } } },
    });
  });

  for (const [name, patch, message] of [
    ['an unknown $patch directive', { spec: { containers: [{ name: 'a', $patch: 'explode' }] } }, 'Unknown patch type: explode'],
    ['a list element without its merge key', { spec: { containers: [{ image: 'x' }] } }, 'does not contain declared merge key: name'],
    ['a body that is not an object', ['x'], 'cannot unmarshal non-object'],
  ] as const) {
    it(`answers 400 for ${name}`, () => {
      let err: unknown;
      try {
        applyStrategicMergePatch(podWith({ containers: [{ name: 'a' }] }), patch, pod.schema);
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(StatusError);
      expect((err as StatusError).status.code).to.equal(400);
      expect((err as StatusError).status.message).to.include(message);
    });
  }
});

describe('strategic merge patch: the result shares nothing with the patch (it may be applied again on a retry)', () => {
  const original = () => podWith({ containers: [{ name: 'a', image: 'x', args: ['old'] }] }, { name: 'p', finalizers: ['f/one'] });
  const patch = () => ({
    metadata: { finalizers: ['f/two'] },
    spec: { containers: [{ name: 'a', args: ['new'] }], tolerations: [{ key: 'k', operator: 'Exists' }], volumes: [{ $patch: 'replace' }, { name: 'v', emptyDir: {} }] },
  });

  it('mutating replaced, atomic and set-merged lists of the result leaves the patch unchanged', () => {
    const p = patch();
    const out = applyStrategicMergePatch(original(), p, pod.schema) as {
      metadata: { finalizers: string[] };
      spec: { containers: Array<{ args: string[] }>; tolerations: Array<{ key: string }>; volumes: Array<{ name: string }> };
    };
    expect(out.metadata.finalizers).to.deep.equal(['f/one', 'f/two']);
    out.spec.containers[0]!.args.push('more');
    out.spec.tolerations[0]!.key = 'changed';
    out.spec.volumes[0]!.name = 'changed';
    expect(p).to.deep.equal(patch());
  });
});
