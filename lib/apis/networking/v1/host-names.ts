/**
 * Name formats of the networking kinds with the upstream messages (apimachinery util/validation
 * `IsWildcardDNS1123Subdomain`, `IsDomainPrefixedPath`): wildcard hosts of Ingress rules and TLS
 * entries, and the `domain/path` form of an IngressClass controller.
 */
import { type FieldError, type FieldPath, invalid, required } from '../../../apimachinery/field-errors.js';
import { DNS1123_SUBDOMAIN_MAX, isDNS1123Subdomain, regexError } from '../../../apimachinery/validation/names.js';

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const WILDCARD_SUBDOMAIN = `\\*\\.${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const reWildcard = new RegExp(`^${WILDCARD_SUBDOMAIN}$`);

/** `*.` followed by a DNS subdomain, ≤ 253 characters (`*.example.com`). */
export function isWildcardDNS1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > DNS1123_SUBDOMAIN_MAX) errs.push(`must be no more than ${DNS1123_SUBDOMAIN_MAX} characters`);
  if (!reWildcard.test(v))
    errs.push(
      regexError(
        "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
        WILDCARD_SUBDOMAIN,
        '*.example.com',
      ),
    );
  return errs;
}

const HTTP_PATH = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const reHttpPath = new RegExp(`^${HTTP_PATH}$`);

/**
 * A DNS subdomain, `/` and an HTTP path (`acme.io/ingress-controller`); errors at `path`:
 * `Required value` when empty, the host's subdomain problems, then the path's.
 */
export function validateDomainPrefixedPath(value: string, path: FieldPath): FieldError[] {
  if (value === '') return [required(path)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? '' : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (host === '' || rest === '') return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = isDNS1123Subdomain(host).map((m) => invalid(path, host, m));
  if (!reHttpPath.test(rest)) errs.push(invalid(path, rest, regexError('must be a valid path', HTTP_PATH)));
  return errs;
}
