/**
 * What every answer to a generated request must be (issue #19 item 6; spec 001 § Errors): never a
 * server error, every JSON error body a Status (`kind: Status`, `apiVersion: v1`, `status:
 * Failure`, `code` equal to the HTTP status, a `reason` for 4xx), and the status the input
 * decides where it does.
 */
import type { WireResponse } from './http.js';
import type { FuzzRequest } from './requests.js';

/**
 * The ways `res` breaks the rules for `req`, as sentences (empty when it keeps them all).
 * A 2xx answer is not judged further: valid-ish input may well succeed.
 */
export function answerProblems(req: FuzzRequest, res: WireResponse): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`server error ${res.status}`);
  if (req.expect !== undefined && res.status !== req.expect) problems.push(`status ${res.status}, expected ${req.expect} (${req.expectWhy})`);
  if (res.status >= 200 && res.status < 300) return problems;
  const ct = String(res.headers['content-type'] ?? '');
  if (req.method === 'HEAD' || !ct.startsWith('application/json') || res.cutShort) return problems;
  const s = res.json;
  if (s === undefined) {
    problems.push('error body is not JSON');
    return problems;
  }
  if (s.kind !== 'Status' || s.apiVersion !== 'v1') problems.push(`error body is a ${s.apiVersion}/${s.kind}, not a v1 Status`);
  if (s.status !== 'Failure') problems.push(`Status.status ${JSON.stringify(s.status)}, not Failure`);
  if (s.code !== res.status) problems.push(`Status.code ${JSON.stringify(s.code)} differs from HTTP ${res.status}`);
  if (res.status >= 400 && res.status < 500 && (typeof s.reason !== 'string' || s.reason === '')) problems.push('4xx Status without a reason');
  return problems;
}
