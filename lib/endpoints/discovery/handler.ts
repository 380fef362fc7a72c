/**
 * Serves the discovery paths (`/api`, `/api/v1`, `/apis`, `/apis/<group>`, `/apis/<group>/<version>`)
 * from the installer's current content, negotiated like any object response; `/api` and `/apis`
 * also as aggregated discovery (root.ts). The upstream aliases of the vendor groups (issue #9)
 * are groups like any other here, listed after every vendor group (spec 000 § Other paths).
 */
import type { Context } from 'koa';
import { writeNegotiated } from '../handlers/scope.js';
import { type APIInstaller, newResourceNotFound } from '../installer.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from './documents.js';
import { serveDiscoveryRoot } from './root.js';

/**
 * Answers a discovery path; returns false when `path` is not one. `serverAddress` is the
 * `host:port` advertised in APIVersions.
 */
export async function serveDiscovery(koa: Context, installer: APIInstaller, path: string, serverAddress: string): Promise<boolean> {
  const parts = path.split('/').filter((p) => p !== '');
  const gvs = installer.groupVersions();
  if (parts[0] === 'api') {
    if (parts.length === 1) {
      await serveDiscoveryRoot(koa, installer, true, () => apiVersions(gvs.filter((g) => g.group === '').map((g) => g.version), serverAddress));
      return true;
    }
    if (parts.length === 2) {
      const gv = gvs.find((g) => g.group === '' && g.version === parts[1]);
      if (!gv) throw newResourceNotFound();
      await writeNegotiated(koa, 200, apiResourceList(gv));
      return true;
    }
    return false;
  }
  if (parts[0] !== 'apis') return false;
  const groups = new Map<string, string[]>();
  for (const g of gvs) if (g.group !== '') groups.set(g.group, [...(groups.get(g.group) ?? []), g.version]);
  if (parts.length === 1) {
    await serveDiscoveryRoot(koa, installer, false, () => apiGroupList(groups));
    return true;
  }
  if (parts.length === 2) {
    const versions = groups.get(parts[1]!);
    if (!versions) throw newResourceNotFound();
    await writeNegotiated(koa, 200, apiGroup(parts[1]!, versions));
    return true;
  }
  if (parts.length === 3) {
    const gv = gvs.find((g) => g.group === parts[1] && g.version === parts[2]);
    if (!gv) throw newResourceNotFound();
    await writeNegotiated(koa, 200, apiResourceList(gv));
    return true;
  }
  return false;
}
