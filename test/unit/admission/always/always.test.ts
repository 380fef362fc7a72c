import { expect } from 'chai';
import type { AdmissionOperation } from '../../../../lib/admission/interface.js';
import type { AdmissionPluginDeps } from '../../../../lib/admission/plugin-deps.js';
import { AlwaysAdmit, AlwaysDeny, alwaysAdmitPlugin, alwaysDenyPlugin, deprecationWarning } from '../../../../lib/admission/plugins/always.js';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { vendorGroup } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';
import type { UserInfo } from '../../../../lib/request/user.js';
import { admissionAttrs } from '../attrs.js';
import { covers } from '../../../conformance/covers.js';

const BOB: UserInfo = { name: 'bob', groups: [] };
const OPS: AdmissionOperation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

/** Deps whose log records warnings; nothing else is used by these plugins. */
function depsWithLog(): { deps: AdmissionPluginDeps; warnings: string[] } {
  const warnings: string[] = [];
  const log = { warn: (_o: object, msg: string) => void warnings.push(msg), error: () => undefined, info: () => undefined };
  return { deps: { log } as unknown as AdmissionPluginDeps, warnings };
}

describe('AlwaysAdmit and AlwaysDeny admission (spec 001 § Admission control)', () => {
  it('both log upstream deprecation warning when built', () => {
    for (const factory of [alwaysAdmitPlugin, alwaysDenyPlugin]) {
      const { deps, warnings } = depsWithLog();
      expect(factory.create(deps).name).to.equal(factory.name);
      expect(warnings).to.deep.equal([`${factory.name} admission controller is deprecated. Please remove this controller from your configuration files and scripts.`]);
    }
    expect(deprecationWarning('X')).to.equal('X admission controller is deprecated. Please remove this controller from your configuration files and scripts.');
  });

  it(`AlwaysAdmit handles and admits every operation${covers('001 § Admission control › AlwaysAdmit')}`, async () => {
    const plugin = new AlwaysAdmit();
    expect(OPS.filter((op) => plugin.handles(op))).to.deep.equal(OPS);
    await plugin.validate();
  });

  it(`AlwaysDeny rejects every operation in both phases with 403 and upstream message${covers('001 § Admission control › AlwaysDeny')}`, async () => {
    const plugin = new AlwaysDeny();
    for (const op of OPS) {
      expect(plugin.handles(op)).to.equal(true);
      const a = admissionAttrs(BOB, { operation: op, group: vendorGroup('rbac.authorization'), resource: 'roles', namespace: 'ns', name: 'r' });
      for (const phase of [() => plugin.admit(internalContext(BOB), a), () => plugin.validate(internalContext(BOB), a)]) {
        let err: unknown;
        await phase().catch((e: unknown) => (err = e));
        expect(err).to.be.instanceOf(StatusError);
        expect((err as StatusError).status).to.deep.include({
          code: 403,
          reason: 'Forbidden',
          message: `roles.${vendorGroup('rbac.authorization')} "r" is forbidden: admission control is denying all modifications`,
        });
      }
    }
  });

  it('AlwaysDeny names an unnamed object by generateName, else Unknown', async () => {
    const plugin = new AlwaysDeny();
    const messages: string[] = [];
    for (const object of [{ metadata: { generateName: 'cm-' } }, { metadata: {} }, null]) {
      await plugin.admit(internalContext(BOB), admissionAttrs(BOB, { resource: 'configmaps', object })).catch((e: StatusError) => messages.push(e.status.message!));
    }
    expect(messages).to.deep.equal([
      'configmaps "cm-" is forbidden: admission control is denying all modifications',
      'configmaps "Unknown" is forbidden: admission control is denying all modifications',
      'configmaps "Unknown" is forbidden: admission control is denying all modifications',
    ]);
  });
});
