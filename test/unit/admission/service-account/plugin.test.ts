import { expect } from 'chai';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { ServiceAccount } from '../../../../lib/admission/plugins/service-account/plugin.js';
import { tokenVolumeSource } from '../../../../lib/admission/plugins/service-account/token-volume.js';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { ENFORCE_MOUNTABLE_SECRETS_ANNOTATION, MIRROR_POD_ANNOTATION, SERVICE_ACCOUNT_TOKEN_MOUNT_PATH } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';
import { admissionAttrs } from '../attrs.js';

const ADMIN = { name: 'admin', groups: ['system:masters'] };
const VOLUME = 'kube-api-access-fixed';
const MOUNT = { name: VOLUME, readOnly: true, mountPath: SERVICE_ACCOUNT_TOKEN_MOUNT_PATH };

const CACHED: Record<string, Obj> = {
  'ns/default': { metadata: { name: 'default', namespace: 'ns' } },
  'ns/no-mount': { metadata: { name: 'no-mount', namespace: 'ns' }, automountServiceAccountToken: false },
  'ns/puller': { metadata: { name: 'puller', namespace: 'ns' }, imagePullSecrets: [{ name: 'regcred' }] },
  'ns/strict': {
    metadata: { name: 'strict', namespace: 'ns', annotations: { [ENFORCE_MOUNTABLE_SECRETS_ANNOTATION]: 'true' } },
    secrets: [{ name: 'allowed' }],
  },
};

/** A plugin over CACHED (the informer) and `live` (storage); counts live reads. */
function pluginOver(live: Record<string, Obj> = {}, failLive?: Error) {
  const reads: string[] = [];
  const plugin = new ServiceAccount(
    {
      lister: { get: (ns, name) => CACHED[`${ns}/${name}`], list: () => Object.values(CACHED), generation: () => 0 },
      get: async (ns, name) => {
        reads.push(`${ns}/${name}`);
        if (failLive) throw failLive;
        return live[`${ns}/${name}`] ?? null;
      },
      defaultAttempts: 3,
      retryIntervalMs: () => 1,
    },
    () => VOLUME,
  );
  return { plugin, reads };
}

const pod = (spec: Obj, meta: Obj = {}): Obj => ({ metadata: { name: 'p', namespace: 'ns', ...meta }, spec });

/** Runs `phase` on `object`; the resulting object, or the rejection as `<code> <message>`. */
async function run(plugin: ServiceAccount, phase: 'admit' | 'validate', object: Obj, a: Partial<AdmissionAttributes> = {}): Promise<Obj | string> {
  const attrs = admissionAttrs(ADMIN, { resource: 'pods', namespace: 'ns', name: 'p', object, ...a });
  try {
    await plugin[phase](internalContext(ADMIN), attrs);
    return attrs.object!;
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    return `${err.status.code} ${err.status.message}`;
  }
}

describe('ServiceAccount admission (spec 001 § Admission control)', () => {
  it('defaults the service account and mounts the token volume', async () => {
    const { plugin } = pluginOver();
    expect(await run(plugin, 'admit', pod({ containers: [{ name: 'c', image: 'i' }] }))).to.deep.equal(
      pod({
        containers: [{ name: 'c', image: 'i', volumeMounts: [MOUNT] }],
        serviceAccountName: 'default',
        volumes: [{ name: VOLUME, projected: tokenVolumeSource() }],
      }),
    );
  });

  it('is idempotent (a second mutating pass changes nothing)', async () => {
    const { plugin } = pluginOver();
    const once = (await run(plugin, 'admit', pod({ containers: [{ name: 'c' }] }))) as Obj;
    const twice = structuredClone(once);
    await run(plugin, 'admit', twice);
    expect(twice).to.deep.equal(once);
  });

  it('does not mount when the pod says no, or the service account says no and the pod says nothing', async () => {
    const { plugin } = pluginOver();
    expect(await run(plugin, 'admit', pod({ automountServiceAccountToken: false, containers: [{ name: 'c' }] }))).to.deep.equal(
      pod({ automountServiceAccountToken: false, containers: [{ name: 'c' }], serviceAccountName: 'default' }),
    );
    expect(await run(plugin, 'admit', pod({ serviceAccountName: 'no-mount', containers: [{ name: 'c' }] }))).to.deep.equal(
      pod({ serviceAccountName: 'no-mount', containers: [{ name: 'c' }] }),
    );
    const podWins = (await run(plugin, 'admit', pod({ serviceAccountName: 'no-mount', automountServiceAccountToken: true, containers: [{ name: 'c' }] }))) as Obj;
    expect((podWins.spec as Obj).volumes).to.have.length(1);
  });

  it('copies the service account’s image pull secrets to a pod that has none', async () => {
    const { plugin } = pluginOver();
    const got = (await run(plugin, 'admit', pod({ serviceAccountName: 'puller', containers: [] }))) as Obj;
    expect((got.spec as Obj).imagePullSecrets).to.deep.equal([{ name: 'regcred' }]);
    const own = (await run(plugin, 'admit', pod({ serviceAccountName: 'puller', containers: [], imagePullSecrets: [{ name: 'mine' }] }))) as Obj;
    expect((own.spec as Obj).imagePullSecrets).to.deep.equal([{ name: 'mine' }]);
  });

  it('reads a service account the informer lacks from storage', async () => {
    const { plugin, reads } = pluginOver({ 'ns/fresh': { metadata: { name: 'fresh' } } });
    expect(await run(plugin, 'admit', pod({ serviceAccountName: 'fresh', containers: [] }))).to.be.an('object');
    expect(reads).to.include('ns/fresh');
  });

  it('rejects a missing service account after one live read, and a missing default after the retries', async () => {
    const { plugin, reads } = pluginOver();
    expect(await run(plugin, 'admit', pod({ serviceAccountName: 'ghost', containers: [] }))).to.equal(
      '403 pods "p" is forbidden: error looking up service account ns/ghost: serviceaccount "ghost" not found',
    );
    expect(reads).to.deep.equal(['ns/ghost']);
    reads.length = 0;
    expect(await run(plugin, 'admit', pod({ containers: [] }), { namespace: 'empty' })).to.equal(
      '403 pods "p" is forbidden: error looking up service account empty/default: serviceaccount "default" not found',
    );
    expect(reads).to.deep.equal(['empty/default', 'empty/default', 'empty/default']);
  });

  it('reports a failed live read in the rejection', async () => {
    const { plugin } = pluginOver({}, new Error('etcd down'));
    expect(await run(plugin, 'admit', pod({ serviceAccountName: 'ghost', containers: [] }))).to.equal(
      '403 pods "p" is forbidden: error looking up service account ns/ghost: etcd down',
    );
  });

  it('bounds secret references of a service account that enforces mountable secrets', async () => {
    const { plugin } = pluginOver();
    const bad = pod({ serviceAccountName: 'strict', containers: [{ name: 'c' }], volumes: [{ name: 'v', secret: { secretName: 'other' } }] });
    const msg = '403 pods "p" is forbidden: volume with secret.secretName="other" is not allowed because service account strict does not reference that secret';
    expect(await run(plugin, 'admit', structuredClone(bad))).to.equal(msg);
    expect(await run(plugin, 'validate', bad)).to.equal(msg);
    const good = pod({ serviceAccountName: 'strict', containers: [{ name: 'c' }], volumes: [{ name: 'v', secret: { secretName: 'allowed' } }] });
    expect(await run(plugin, 'admit', good)).to.be.an('object');
  });

  it('rejects in the validating phase a pod whose service account was removed or does not exist', async () => {
    const { plugin } = pluginOver();
    expect(await run(plugin, 'validate', pod({ containers: [] }))).to.equal('403 pods "p" is forbidden: no service account specified for pod ns/p');
    expect(await run(plugin, 'validate', pod({ serviceAccountName: 'ghost', containers: [] }))).to.match(/error looking up service account ns\/ghost/);
  });

  describe('mirror pods', () => {
    const mirror = (spec: Obj) => pod(spec, { annotations: { [MIRROR_POD_ANNOTATION]: 'x' } });

    it('are left unchanged', async () => {
      const { plugin } = pluginOver();
      expect(await run(plugin, 'admit', mirror({ containers: [{ name: 'c' }] }))).to.deep.equal(mirror({ containers: [{ name: 'c' }] }));
    });

    it('may reference no service account, secret or token projection', async () => {
      const { plugin } = pluginOver();
      const cases: [Obj, string][] = [
        [{ serviceAccountName: 'default', containers: [] }, 'a mirror pod may not reference service accounts'],
        [{ containers: [{ name: 'c', envFrom: [{ secretRef: { name: 's' } }] }] }, 'a mirror pod may not reference secrets'],
        [{ containers: [], volumes: [{ name: 'v', secret: { secretName: 's' } }] }, 'a mirror pod may not reference secrets'],
        [
          { containers: [], volumes: [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] },
          'a mirror pod may not use ServiceAccountToken volume projections',
        ],
      ];
      for (const [spec, why] of cases) {
        expect(await run(plugin, 'admit', mirror(spec))).to.equal(`403 pods "p" is forbidden: ${why}`);
        expect(await run(plugin, 'validate', mirror(spec))).to.equal(`403 pods "p" is forbidden: ${why}`);
      }
    });
  });

  describe('updates', () => {
    it('are not mutated or checked, except the ephemeral containers subresource', async () => {
      const { plugin } = pluginOver();
      const before = pod({ serviceAccountName: 'strict', containers: [{ name: 'c' }], volumes: [{ name: 'v', secret: { secretName: 'other' } }] });
      expect(await run(plugin, 'admit', structuredClone(before), { operation: 'UPDATE' })).to.deep.equal(before);
      expect(await run(plugin, 'validate', structuredClone(before), { operation: 'UPDATE' })).to.deep.equal(before);
    });

    it('of ephemeral containers are bounded by the mountable secrets', async () => {
      const { plugin } = pluginOver();
      const debug = (secret: string) =>
        pod({ serviceAccountName: 'strict', containers: [{ name: 'c' }], ephemeralContainers: [{ name: 'dbg', env: [{ name: 'T', valueFrom: { secretKeyRef: { name: secret, key: 'k' } } }] }] });
      const attrs = { operation: 'UPDATE' as const, subresource: 'ephemeralcontainers' };
      expect(await run(plugin, 'validate', debug('other'), attrs)).to.equal(
        '403 pods "p" is forbidden: ephemeral container dbg with envVar T referencing secret.secretName="other" is not allowed because service account strict does not reference that secret',
      );
      expect(await run(plugin, 'validate', debug('allowed'), attrs)).to.be.an('object');
      expect(await run(plugin, 'validate', pod({ containers: [] }), attrs)).to.equal('403 pods "p" is forbidden: no service account specified for pod ns/p');
    });
  });

  it('ignores other resources and other subresources', async () => {
    const { plugin } = pluginOver();
    const obj = pod({ containers: [] });
    expect(await run(plugin, 'admit', structuredClone(obj), { resource: 'podtemplates' })).to.deep.equal(obj);
    expect(await run(plugin, 'admit', structuredClone(obj), { subresource: 'binding' })).to.deep.equal(obj);
  });
});
