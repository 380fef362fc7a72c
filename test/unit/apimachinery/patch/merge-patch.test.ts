import { expect } from 'chai';
import { applyMergePatch } from '../../../../lib/apimachinery/patch/merge-patch.js';

describe('patch/merge-patch: RFC 7386 Appendix A (spec 000 § Patch content types, application/merge-patch+json)', () => {
  // [original, patch, result], in the order of the RFC's examples.
  const cases: Array<[unknown, unknown, unknown]> = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [original, patch, result] of cases) {
    it(`${JSON.stringify(original)} + ${JSON.stringify(patch)} = ${JSON.stringify(result)}`, () => {
      expect(applyMergePatch(original, patch)).to.deep.equal(result);
    });
  }

  it('the RFC 7386 section 3 example document', () => {
    const target = {
      title: 'Goodbye!',
      author: { givenName: 'John', familyName: 'Doe' },
      tags: ['example', 'sample'],
      content: 'This will be unchanged',
    };
    const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] };
    expect(applyMergePatch(target, patch)).to.deep.equal({
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'This will be unchanged',
      phoneNumber: '+01-123-456-7890',
    });
  });

  it('a frozen object of the target is shared by the result where the patch leaves it, and copied where it reaches', () => {
    const frozen = Object.freeze({ b: Object.freeze({ c: 1 }), d: 2 });
    const target = { kept: [frozen], patched: frozen };
    const result = applyMergePatch(target, { patched: { b: { e: 3 } } }) as { kept: unknown[]; patched: Record<string, unknown> };
    expect(result).to.deep.equal({ kept: [{ b: { c: 1 }, d: 2 }], patched: { b: { c: 1, e: 3 }, d: 2 } });
    expect(result.kept[0]).to.equal(frozen);
    expect(frozen).to.deep.equal({ b: { c: 1 }, d: 2 });
  });

  it('removing a key that does not exist is a no-op', () => {
    expect(applyMergePatch({ a: 1 }, { b: null })).to.deep.equal({ a: 1 });
  });

  it('a null target is treated as an empty object for an object patch', () => {
    expect(applyMergePatch(null, { a: 1 })).to.deep.equal({ a: 1 });
  });
});

describe('patch/merge-patch: inputs are never mutated', () => {
  const target = () => ({ metadata: { name: 'x', labels: { a: '1', b: '2' } }, spec: { list: [{ n: 1 }], keep: { deep: true } } });
  const patch = () => ({ metadata: { labels: { a: null, c: '3' } }, spec: { list: [{ n: 2 }], added: { x: [1] } } });

  it('applying leaves target and patch unchanged', () => {
    const t = target();
    const p = patch();
    applyMergePatch(t, p);
    expect(t).to.deep.equal(target());
    expect(p).to.deep.equal(patch());
  });

  it('mutating the result afterwards leaves the target unchanged', () => {
    const t = target();
    const out = applyMergePatch(t, patch()) as ReturnType<typeof target>;
    out.metadata.name = 'changed';
    out.spec.keep.deep = false;
    expect(t).to.deep.equal(target());
  });

  it('mutating the result afterwards leaves the patch unchanged (it may be applied again on a retry)', () => {
    const p = patch();
    const out = applyMergePatch(target(), p) as { spec: { list: Array<{ n: number }>; added: { x: number[] } } };
    out.spec.list[0]!.n = 99;
    out.spec.added.x.push(2);
    expect(p).to.deep.equal(patch());
  });
});
