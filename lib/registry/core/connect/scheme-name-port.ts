/**
 * The object id of a proxy request (upstream `SplitSchemeNamePort`): `name`, `name:port` or
 * `scheme:name:port`, the scheme `http`, `https` or empty. spec 000 § Verb mapping.
 */

/** The parts of a proxy id. */
export interface SchemeNamePort {
  /** `http`, `https` or '' (the target's default). */
  scheme: string;
  name: string;
  /** A port number or name; '' when not given. */
  port: string;
}

const SCHEMES: ReadonlySet<string> = new Set(['', 'http', 'https']);

/** Splits a proxy id; undefined when it has more than three parts, no name or another scheme. */
export function splitSchemeNamePort(id: string): SchemeNamePort | undefined {
  const parts = id.split(':');
  let out: SchemeNamePort;
  if (parts.length === 1) out = { scheme: '', name: parts[0]!, port: '' };
  else if (parts.length === 2) out = { scheme: '', name: parts[0]!, port: parts[1]! };
  else if (parts.length === 3) out = { scheme: parts[0]!, name: parts[1]!, port: parts[2]! };
  else return undefined;
  return out.name !== '' && SCHEMES.has(out.scheme) ? out : undefined;
}
