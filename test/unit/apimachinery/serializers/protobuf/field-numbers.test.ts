/**
 * Stable protobuf field numbers (spec 001 § API versions and groups; spec 000 § Protobuf
 * envelope): the number and wire type of every field of every served kind, in every served
 * version (the alpha and beta ones `--runtime-config` turns on included), are pinned in
 * test/fixtures/protobuf/field-numbers.txt. Renumbering a field, changing its type or dropping
 * it fails here; a new field or kind fails until its lines are added to the file on purpose.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { servedResources } from '../../../../../lib/controlplane/resources.js';
import type { StorageInterface } from '../../../../../lib/storage/interface.js';
import { SERVED_KINDS, fieldNumbersText } from './field-numbers.js';

const GOLDEN = new URL('../../../../fixtures/protobuf/field-numbers.txt', import.meta.url);

describe('protobuf field numbers of every served kind (spec 001 § API versions and groups)', () => {
  it('every stored kind and every other version the server serves of it is pinned', () => {
    const pinned = new Set(SERVED_KINDS.map((k) => `${k.apiVersion} ${k.kind}`));
    const served = servedResources(() => ({}) as StorageInterface, '/registry').flatMap((r) => [
      r.store.strategy.kind,
      ...(r.versions ?? []).map((v) => v.conversion.servedKind),
    ]);
    expect(served.map((k) => `${k.apiVersion} ${k.kind}`).filter((k) => !pinned.has(k))).to.deep.equal([]);
    for (const v of ['flowcontrol.apiserver.orch.io/v1beta3', 'admissionregistration.orch.io/v1beta1', 'admissionregistration.orch.io/v1alpha1', 'authentication.orch.io/v1beta1', 'authentication.orch.io/v1alpha1', 'autoscaling/v1', 'events.orch.io/v1']) {
      expect([...pinned].some((k) => k.startsWith(`${v} `)), v).to.equal(true);
    }
  });

  it('matches the golden file line for line (number and wire type of each field)', () => {
    const want = readFileSync(GOLDEN, 'utf8').split('\n');
    const got = fieldNumbersText().split('\n');
    const wanted = new Set(want);
    const produced = new Set(got);
    expect({ changedOrRemoved: want.filter((l) => !produced.has(l)), added: got.filter((l) => !wanted.has(l)) }).to.deep.equal({ changedOrRemoved: [], added: [] });
  });

  it('a renumbered field shows as a changed line', () => {
    const golden = readFileSync(GOLDEN, 'utf8');
    expect(golden).to.include('\napi.core.v1.ConfigMap data = 2 map<string>\n');
    expect(golden).to.include('\napi.core.v1.Pod spec = 2 struct api.core.v1.PodSpec\n');
    expect(golden).to.include('\napi.flowcontrol.v1beta3.LimitedPriorityLevelConfiguration nominalConcurrencyShares = 1 int32\n');
  });
});
