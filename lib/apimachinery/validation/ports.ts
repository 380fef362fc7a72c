/**
 * Port numbers and IANA service names (named ports), with the upstream messages
 * (apimachinery util/validation `IsValidPortNum`, `IsValidPortName`). Each returns the list of
 * problems (empty = valid); callers wrap them in `invalid(path, value, msg)`.
 */

/** Longest IANA service name (RFC 6335). */
export const PORT_NAME_MAX = 15;

/** A TCP/UDP/SCTP port number: 1–65535. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** An IANA service name (`http`, `metrics-2`): ≤ 15 chars, `[-a-z0-9]`, one letter, no `--`, no edge `-`. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > PORT_NAME_MAX) errs.push(`must be no more than ${PORT_NAME_MAX} characters`);
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}
