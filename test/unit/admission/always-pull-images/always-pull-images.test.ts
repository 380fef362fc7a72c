import { expect } from 'chai';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { AlwaysPullImages, podContainers } from '../../../../lib/admission/plugins/always-pull-images.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { internalContext } from '../../../../lib/request/context.js';
import type { UserInfo } from '../../../../lib/request/user.js';
import { admissionAttrs, rejection } from '../attrs.js';
import { covers } from '../../../conformance/covers.js';

const BOB: UserInfo = { name: 'bob', groups: [] };
const plugin = new AlwaysPullImages();
const c = (name: string, image: string, imagePullPolicy?: string): Obj => ({ name, image, ...(imagePullPolicy && { imagePullPolicy }) });
const pod = (spec: Obj): Obj => ({ metadata: { name: 'p', namespace: 'ns' }, spec });
const policies = (p: Obj) => podContainers(p).map(({ container }) => container.imagePullPolicy);

function attrs(object: Obj, a: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return admissionAttrs(BOB, { resource: 'pods', kind: 'Pod', namespace: 'ns', name: 'p', object, ...a });
}

async function validation(a: AdmissionAttributes): Promise<string> {
  return rejection(plugin.validate(internalContext(BOB), a), true);
}

describe('AlwaysPullImages admission (spec 001 § Admission control)', () => {
  const full = () =>
    pod({
      initContainers: [c('i', 'init:1', 'IfNotPresent')],
      containers: [c('a', 'app:1', 'Never'), c('b', 'app:2')],
      ephemeralContainers: [c('e', 'debug:1', 'IfNotPresent')],
    });

  it('handles creations and updates', () => {
    expect(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'].filter((op) => plugin.handles(op as never))).to.deep.equal(['CREATE', 'UPDATE']);
  });

  it('visits init containers, containers, then ephemeral containers with their field paths', () => {
    expect(podContainers(full()).map(({ path }) => path.toString())).to.deep.equal(['spec.initContainers[0]', 'spec.containers[0]', 'spec.containers[1]', 'spec.ephemeralContainers[0]']);
  });

  it(`sets imagePullPolicy Always on every container of a created pod${covers('001 § Admission control › AlwaysPullImages')}`, async () => {
    const a = attrs(full());
    await plugin.admit(internalContext(BOB), a);
    expect(policies(a.object!)).to.deep.equal(['Always', 'Always', 'Always', 'Always']);
    expect(await validation(a)).to.equal('');
  });

  it('on update, mutates when a new image appears and leaves updates without new images alone', async () => {
    const old = full();
    const same = attrs(full(), { operation: 'UPDATE', oldObject: old });
    await plugin.admit(internalContext(BOB), same);
    expect(policies(same.object!)).to.deep.equal(['IfNotPresent', 'Never', undefined, 'IfNotPresent']);
    expect(await validation(same)).to.equal('');
    const changed = full();
    ((changed.spec as Obj).containers as Obj[])[1]!.image = 'app:3';
    const withNew = attrs(changed, { operation: 'UPDATE', oldObject: old });
    await plugin.admit(internalContext(BOB), withNew);
    expect(policies(withNew.object!)).to.deep.equal(['Always', 'Always', 'Always', 'Always']);
  });

  it('ignores subresources and other resources', async () => {
    for (const a of [attrs(full(), { subresource: 'ephemeralcontainers', operation: 'UPDATE', oldObject: pod({}) }), attrs(full(), { resource: 'podtemplates' }), attrs(full(), { group: 'apps' })]) {
      await plugin.admit(internalContext(BOB), a);
      expect(policies(a.object!)).to.deep.equal(['IfNotPresent', 'Never', undefined, 'IfNotPresent']);
      expect(await validation(a)).to.equal('');
    }
  });

  it('validation rejects one container without Always: 403 with the field error of upstream', async () => {
    const a = attrs(pod({ containers: [c('a', 'app:1', 'Always'), c('b', 'app:2', 'IfNotPresent')] }));
    expect(await validation(a)).to.equal(
      '403 Forbidden pods "p" is forbidden: spec.containers[1].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"',
    );
  });

  it('validation of several offending containers: Go aggregate of the messages, an unset policy shown as ""', async () => {
    const a = attrs(pod({ initContainers: [c('i', 'init:1')], containers: [c('a', 'app:1', 'Never')] }));
    expect(await validation(a)).to.equal(
      '403 Forbidden [pods "p" is forbidden: spec.initContainers[0].imagePullPolicy: Unsupported value: "": supported values: "Always", ' +
        'pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "Never": supported values: "Always"]',
    );
  });
});
