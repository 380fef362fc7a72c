/**
 * The write path of `Secret.stringData` (upstream v1 → internal conversion): every entry is
 * encoded and written into `data`, overwriting a key of the same name, and `stringData` itself is
 * dropped, so it is never stored or returned. The registry strategy calls this on create and
 * update before validation.
 */
import type { Obj } from '../../define.js';

/** Merges `secret.stringData` into `secret.data` (base64) and removes `stringData`. Mutates `secret`. */
export function mergeStringData(secret: Obj): void {
  const stringData = secret.stringData as Record<string, string> | undefined;
  delete secret.stringData;
  if (!stringData || Object.keys(stringData).length === 0) return;
  const data = { ...((secret.data as Record<string, string> | undefined) ?? {}) };
  for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(v, 'utf8').toString('base64');
  secret.data = data;
}
