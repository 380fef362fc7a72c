/**
 * Container image references (`[registry/]path[:tag][@digest]`), parsed as the upstream
 * normalized docker reference grammar, for the default image pull policy
 * (`SetDefaults_Container`: tag `latest` or no tag and no digest → Always, else IfNotPresent).
 * The grammar is matched with RE2 (re2js), as upstream with Go's regexp: its path components
 * (`[a-z0-9]+` runs with optional separators) made JavaScript's engine backtrack exponentially,
 * 281 ms for an image of 24 letters and a `!`, doubling with each letter more, on every Pod write.
 */
import { RE2JS } from 're2js';

const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*';
const DOMAIN_PART = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_PART}(?:\\.${DOMAIN_PART})*|\\[[0-9a-fA-F:]+\\])(?::[0-9]+)?`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = RE2JS.compile(`^((?:${DOMAIN}/)?${COMPONENT}(?:/${COMPONENT})*)(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const HEX64 = /^[a-f0-9]{64}$/;

/** The parts of an image reference; undefined when it does not parse. */
export interface ImageReference {
  name: string;
  tag?: string;
  digest?: string;
}

/** Parses an image reference; undefined for an invalid one (e.g. upper-case path, empty). */
export function parseImageReference(image: string): ImageReference | undefined {
  const m = REFERENCE.matcher(image);
  if (!m.matches()) return undefined;
  const name = m.group(1)!;
  if (name.length > 255 || HEX64.test(name)) return undefined;
  const ref: ImageReference = { name };
  const tag = m.group(2);
  const digest = m.group(3);
  if (tag !== null) ref.tag = tag;
  if (digest !== null) ref.digest = digest;
  return ref;
}

/**
 * The pull policy upstream defaults for `image`: `Always` when the tag is `latest` or there is
 * neither tag nor digest, `IfNotPresent` otherwise (including for unparsable references).
 */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const ref = parseImageReference(image);
  if (!ref) return 'IfNotPresent';
  const tag = ref.tag ?? (ref.digest === undefined ? 'latest' : '');
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}
