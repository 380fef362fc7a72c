import { expect } from 'chai';
import { AdmissionChain } from '../../../lib/admission/chain.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../../lib/admission/interface.js';
import { newForbidden } from '../../../lib/apimachinery/errors.js';
import { internalContext } from '../../../lib/request/context.js';
import { admissionAttrs } from './attrs.js';

const USER = { name: 'alice', groups: [] };
const ctx = internalContext(USER);

/** A plugin that records its calls into `log` as `<name>:<phase>`. */
function recorder(name: string, log: string[], opts: { mutate?: boolean; validate?: boolean; ops?: AdmissionOperation[]; reject?: boolean } = {}): AdmissionPlugin {
  const p: AdmissionPlugin = { name, handles: (op) => (opts.ops ?? ['CREATE', 'UPDATE', 'DELETE', 'CONNECT']).includes(op) };
  if (opts.mutate !== false) {
    p.admit = async (_c, a) => {
      log.push(`${name}:admit${a.reinvocation.isReinvoke ? ':again' : ''}`);
      if (opts.reject) throw newForbidden({ group: '', resource: 'pods' }, 'p', `${name} says no`);
    };
  }
  if (opts.validate) p.validate = async () => void log.push(`${name}:validate`);
  return p;
}

describe('admission/chain', () => {
  it('runs every mutating plugin in order, then every validating plugin in order', async () => {
    const log: string[] = [];
    const chain = new AdmissionChain([recorder('A', log, { validate: true }), recorder('B', log, { mutate: false, validate: true }), recorder('C', log)]);
    const a = admissionAttrs(USER, { resource: 'pods' });
    await chain.admit(ctx, a);
    await chain.validate(ctx, a);
    expect(log).to.deep.equal(['A:admit', 'C:admit', 'A:validate', 'B:validate']);
  });

  it('skips plugins that do not handle the operation', async () => {
    const log: string[] = [];
    const chain = new AdmissionChain([recorder('A', log, { ops: ['DELETE'] }), recorder('B', log, { ops: ['CREATE'] })]);
    await chain.admit(ctx, admissionAttrs(USER, { operation: 'CREATE' }));
    expect(log).to.deep.equal(['B:admit']);
  });

  it('stops at the first rejection with the plugin’s Status', async () => {
    const log: string[] = [];
    const chain = new AdmissionChain([recorder('A', log, { reject: true }), recorder('B', log)]);
    const err = await chain.admit(ctx, admissionAttrs(USER, {})).catch((e: unknown) => e);
    expect(err).to.have.nested.property('status.code', 403);
    expect(err).to.have.nested.property('status.message', 'pods "p" is forbidden: A says no');
    expect(log).to.deep.equal(['A:admit']);
  });

  it('runs the mutating phase once more when a plugin asks for reinvocation', async () => {
    const log: string[] = [];
    const asker: AdmissionPlugin = {
      name: 'asker',
      handles: () => true,
      admit: async (_c, a: AdmissionAttributes) => {
        log.push(`asker:admit${a.reinvocation.isReinvoke ? ':again' : ''}`);
        if (!a.reinvocation.isReinvoke) a.reinvocation.shouldReinvoke = true;
      },
    };
    const chain = new AdmissionChain([recorder('A', log), asker]);
    await chain.admit(ctx, admissionAttrs(USER, {}));
    expect(log).to.deep.equal(['A:admit', 'asker:admit', 'A:admit:again', 'asker:admit:again']);
  });

  it('holds requests until the plugins’ informers are ready', async () => {
    const log: string[] = [];
    const chain = new AdmissionChain([recorder('A', log, { validate: true })]);
    let release!: () => void;
    void chain.whenReady(new Promise<void>((r) => (release = r)));
    const admitted = chain.admit(ctx, admissionAttrs(USER, {}));
    const validated = chain.validate(ctx, admissionAttrs(USER, {}));
    await new Promise((r) => setImmediate(r));
    expect(log).to.deep.equal([]);
    release();
    await Promise.all([admitted, validated]);
    expect(log).to.deep.equal(['A:admit', 'A:validate']);
  });
});
