/** Who manages the fields a write sets (spec 000 § Managed-field entry, § Field ownership; issue #5 items 2 and 3). */

/** Longest manager name taken from a User-Agent (upstream). */
const MAX_MANAGER_LENGTH = 128;

/**
 * The field manager of a write: the `fieldManager` parameter, else the User-Agent up to its first
 * `/` (non-printable characters dropped, at most 128 characters), as upstream.
 */
export function managerOf(fieldManager: string, userAgent: string): string {
  if (fieldManager) return fieldManager;
  let out = '';
  for (const ch of userAgent.split('/')[0] ?? '') {
    if (!/\P{C}/u.test(ch)) continue;
    if (out.length + ch.length > MAX_MANAGER_LENGTH) break;
    out += ch;
  }
  return out;
}
