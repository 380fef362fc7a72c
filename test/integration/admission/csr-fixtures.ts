/**
 * Shared fixtures of the certificate admission integration tests: static-token users, RBAC
 * objects granting CSR subresource writes and signer verbs, CertificateSigningRequest bodies and
 * a poll for RBAC grants to reach the authorizer's cache.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import type { TestClient, TestResponse } from '../../framework/client.js';

export const CERTIFICATES = vendorGroup('certificates');
export const CSRS = `/apis/${CERTIFICATES}/v1/certificatesigningrequests`;
const RBAC = vendorGroup('rbac.authorization');
const RBAC_V1 = `/apis/${RBAC}/v1`;

/** A token file line per user: `<name>-token,<name>,uid-<name>,` (no groups). */
export function tokenFile(users: readonly string[]): string {
  return users.map((u) => `${u}-token,${u},uid-${u},`).join('\n');
}

/** A CertificateSigningRequest body for `signerName` carrying the base64 PEM `request`. */
export function csrBody(name: string, signerName: string, request: string): object {
  return { apiVersion: `${CERTIFICATES}/v1`, kind: 'CertificateSigningRequest', metadata: { name }, spec: { request, signerName, usages: ['client auth'] } };
}

/** Expects `res` to have `status`, showing the body otherwise. */
export function expectStatus(res: TestResponse, status: number): void {
  expect(res.status, res.text).to.equal(status);
}

/**
 * Grants `user` a ClusterRole named after it: get on CSRs, update on the `subresource` of CSRs and
 * `verb` on the signers `signerNames` (none: no signer rule).
 */
export async function grant(admin: TestClient, user: string, subresource: 'approval' | 'status', verb: 'approve' | 'sign', signerNames: string[]): Promise<void> {
  const rules: object[] = [
    { verbs: ['get', 'list'], apiGroups: [CERTIFICATES], resources: ['certificatesigningrequests'] },
    { verbs: ['update', 'patch'], apiGroups: [CERTIFICATES], resources: [`certificatesigningrequests/${subresource}`] },
  ];
  if (signerNames.length > 0) rules.push({ verbs: [verb], apiGroups: [CERTIFICATES], resources: ['signers'], resourceNames: signerNames });
  expectStatus(await admin.post(`${RBAC_V1}/clusterroles`, { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: user }, rules }), 201);
  expectStatus(
    await admin.post(`${RBAC_V1}/clusterrolebindings`, {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: user },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: user },
      subjects: [{ kind: 'User', apiGroup: RBAC, name: user }],
    }),
    201,
  );
}

/** Polls until `client` may GET the CSR list (its grant reached the RBAC cache), for up to 5 s. */
export async function waitForGrant(client: TestClient): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await client.get(CSRS)).status === 200) return;
    await sleep(50);
  }
  throw new Error('RBAC grant not effective within 5 s');
}
