/**
 * The server's own client configuration files with a credential plugin (spec 001 § Client
 * credential plugin; lib/client/exec-credential.ts): the `--authentication-token-webhook-config-file`
 * kubeconfig names an `exec` plugin instead of a token, and the server presents the plugin's token
 * to the webhook, which accepts only that bearer.
 */
import { expect } from 'chai';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { type TestServer, startTestServer } from '../../framework/test-server.js';
import { TokenReviewWebhook, reviewAnswer } from '../../framework/token-review-webhook.js';

const AUTHN = vendorGroup('authentication');
const PLUGIN_TOKEN = 'plugin-made-token-31c7';

describe('a webhook kubeconfig whose user is an exec plugin (spec 001 § Client credential plugin)', function () {
  this.timeout(60_000);
  let dir: string;
  let hook: TokenReviewWebhook;
  let server: TestServer;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-webhook-exec-'));
    hook = await TokenReviewWebhook.start({ kind: 'token', token: PLUGIN_TOKEN });
    hook.respond = (_review, token) => reviewAnswer(`${AUTHN}/v1beta1`, token === 'user-token' ? { authenticated: true, user: { username: 'ursula', groups: ['system:masters'] } } : { authenticated: false });
    const plugin = path.join(dir, 'token-plugin');
    await writeFile(
      plugin,
      `#!/bin/sh\nprintf '%s\\n' "$ORCH_EXEC_INFO" >>'${dir}/runs'\nprintf '{"apiVersion":"client.authentication.orch.io/v1","kind":"ExecCredential","status":{"token":"${PLUGIN_TOKEN}"}}'\n`,
    );
    await chmod(plugin, 0o755);
    const kubeconfig = path.join(dir, 'webhook.kubeconfig');
    await writeFile(
      kubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'hook', cluster: { server: hook.url, 'certificate-authority-data': Buffer.from(hook.caPem).toString('base64') } }],
        users: [{ name: 'apiserver', user: { exec: { apiVersion: 'client.authentication.orch.io/v1', command: './token-plugin', interactiveMode: 'Never', provideClusterInfo: true } } }],
        contexts: [{ name: 'hook', context: { cluster: 'hook', user: 'apiserver' } }],
        'current-context': 'hook',
      }),
    );
    server = await startTestServer({ authentication: { tokenWebhookConfigFile: kubeconfig } });
  });
  after(async () => {
    await server?.stop();
    await hook?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('authenticates to the webhook with the plugin\'s token, running the plugin once', async () => {
    const res = await server.admin.get('/api/v1/namespaces', { creds: { token: 'user-token' } });
    expect(res.status, res.text).to.equal(200);
    expect(hook.callsFor('user-token')).to.have.length(1);
    expect(hook.calls[0]!.headers.authorization).to.equal(`Bearer ${PLUGIN_TOKEN}`);
    expect((await server.admin.get('/api/v1/namespaces', { creds: { token: 'other-token' } })).status).to.equal(401);
    const runs = (await readFile(path.join(dir, 'runs'), 'utf8')).trim().split('\n');
    expect(runs).to.have.length(1);
    expect(JSON.parse(runs[0]!).spec.cluster.server).to.equal(hook.url);
  });
});
