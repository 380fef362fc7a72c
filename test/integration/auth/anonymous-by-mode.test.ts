/**
 * The anonymous default under each authorization mode (spec 001 § Anonymous requests,
 * § Authorization; README § Where we differ from the spec's text): `--anonymous-auth` is on by
 * default, so a request without credentials is `system:anonymous` and the modes decide, except
 * when the mode list holds `AlwaysAllow`, which switches anonymous requests off (401), as upstream.
 * One server per row, each with `--anonymous-auth` left at its default.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { defaultAuthenticationOptions } from '../../../lib/server/options/authentication-options.js';
import type { AuthorizationMode } from '../../../lib/server/options/authorization-options.js';
import { TokenReviewWebhook } from '../../framework/token-review-webhook.js';
import { type TestServer, startTestServer } from '../../framework/test-server.js';

const ABAC_POLICY = `${JSON.stringify({
  apiVersion: `${vendorGroup('abac.authorization')}/v1beta1`,
  kind: 'Policy',
  spec: { group: 'system:unauthenticated', readonly: true, nonResourcePath: '/healthz' },
})}\n`;

/** One row: the modes, and the anonymous answers to a resource list and to `/healthz`. */
interface Row {
  modes: AuthorizationMode[];
  namespaces: number;
  healthz: number;
  /** The 403 message of the namespaces list, when it is 403. */
  message?: string;
}

const FORBIDDEN_LIST = 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope';

const ROWS: Row[] = [
  { modes: ['AlwaysAllow'], namespaces: 401, healthz: 401 },
  { modes: ['RBAC', 'AlwaysAllow'], namespaces: 401, healthz: 401 },
  { modes: ['AlwaysDeny'], namespaces: 403, healthz: 403, message: `${FORBIDDEN_LIST}: Everything is forbidden.` },
  { modes: ['ABAC'], namespaces: 403, healthz: 200, message: `${FORBIDDEN_LIST}: No policy matched.` },
  { modes: ['RBAC'], namespaces: 403, healthz: 200, message: FORBIDDEN_LIST },
  { modes: ['Node'], namespaces: 403, healthz: 403, message: FORBIDDEN_LIST },
  { modes: ['Node', 'RBAC'], namespaces: 403, healthz: 200, message: FORBIDDEN_LIST },
  { modes: ['Webhook'], namespaces: 200, healthz: 200 },
];

describe('anonymous requests under each authorization mode, --anonymous-auth at its default (spec 001 § Anonymous requests)', function () {
  this.timeout(60_000);
  let dir: string;
  let hook: TokenReviewWebhook;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-anonymous-modes-'));
    await writeFile(path.join(dir, 'policy.jsonl'), ABAC_POLICY);
    // The Webhook row's authorizer allows system:anonymous in group system:unauthenticated, and no one else.
    hook = await TokenReviewWebhook.start();
    hook.respond = (review) => ({
      body: {
        apiVersion: `${vendorGroup('authorization')}/v1beta1`,
        kind: 'SubjectAccessReview',
        status: { allowed: review.body.spec.user === 'system:anonymous' && review.body.spec.group.includes('system:unauthenticated') },
      },
    });
  });
  after(async () => {
    await hook?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('the default of --anonymous-auth is true', () => {
    expect(defaultAuthenticationOptions().anonymousAuth).to.equal(true);
  });

  for (const row of ROWS) {
    it(`--authorization-mode=${row.modes.join(',')}: a list answers ${row.namespaces}, /healthz ${row.healthz}`, async () => {
      let server: TestServer | undefined;
      try {
        server = await startTestServer({
          authorization: {
            modes: row.modes,
            ...(row.modes.includes('ABAC') ? { policyFile: path.join(dir, 'policy.jsonl') } : {}),
            ...(row.modes.includes('Webhook') ? { webhookConfigFile: await hook.writeKubeconfig() } : {}),
          },
        });
        const list = await server.anonymous.get('/api/v1/namespaces');
        expect(list.status, list.text).to.equal(row.namespaces);
        if (row.namespaces === 401) expect(list.body).to.include({ kind: 'Status', reason: 'Unauthorized', code: 401 });
        if (row.message !== undefined) expect(list.body.message).to.equal(row.message);
        expect((await server.anonymous.get('/healthz')).status).to.equal(row.healthz);
      } finally {
        await server?.stop();
      }
    });
  }
});
