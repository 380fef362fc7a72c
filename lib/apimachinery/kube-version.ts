/**
 * Upstream's "kube-aware" ordering of API version names (`CompareKubeAwareVersionStrings`): GA
 * versions first (higher major first: v2, v1), then betas, then alphas (each by major, then by
 * their number, higher first: v1beta2, v1beta1), then names of no such form, alphabetically. It
 * orders the versions of a group whose APIServices share one priority (custom resource groups;
 * spec 000 § Other paths: discovery).
 */

const KUBE_VERSION = /^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$/;

/** The rank of a version name: [stage (2 GA, 1 beta, 0 alpha, -1 other), major, minor]. */
function rank(v: string): [number, number, number] {
  const m = KUBE_VERSION.exec(v);
  if (!m) return [-1, 0, 0];
  const stage = m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0;
  return [stage, Number(m[1]), m[3] === undefined ? 0 : Number(m[3])];
}

/** Negative when `a` comes before `b` in discovery (higher priority), positive after, 0 equal. */
export function compareKubeAwareVersions(a: string, b: string): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra[0] === -1 && rb[0] === -1) return a < b ? -1 : a > b ? 1 : 0;
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return rb[i]! - ra[i]!;
  return 0;
}
