/**
 * Validation of a webhook's client configuration target (upstream v1.30
 * `k8s.io/apiserver/pkg/util/webhook` `ValidateWebhookURL` and `ValidateWebhookService`, with
 * their messages). URLs are split as Go's `net/url.Parse` does (the parts those checks read —
 * scheme, user information, host, query, fragment — and its main errors), not as WHATWG URLs,
 * which reject or normalize what Go accepts.
 */
import { type FieldError, type FieldPath, invalid, required } from '../../../apimachinery/field-errors.js';
import { goQuote } from '../../../apimachinery/go-quote.js';
import { isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import { isValidPortNum } from '../../../apimachinery/validation/ports.js';

/** The parts of a URL the checks read, as Go's `url.URL` holds them. */
interface GoURL {
  scheme: string;
  /** `url.User.String()`, undefined without user information. */
  user: string | undefined;
  host: string;
  rawQuery: string;
  fragment: string;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;
/** ASCII characters Go's host parser accepts unescaped (letters, digits, `-._~`, sub-delims, `:[]<>"`). */
const HOST_CHAR = /^[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"]$/;

function schemeOf(raw: string): { scheme: string; rest: string } | string {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return { scheme: '', rest: raw };
      continue;
    }
    if (c === ':') return i === 0 ? 'missing protocol scheme' : { scheme: raw.slice(0, i), rest: raw.slice(i + 1) };
    return { scheme: '', rest: raw };
  }
  return { scheme: '', rest: raw };
}

function hostError(host: string): string | undefined {
  let h = host;
  if (h.startsWith('[')) {
    const end = h.lastIndexOf(']');
    if (end < 0) return 'missing \']\' in host';
    const port = h.slice(end + 1);
    if (port !== '' && !/^:[0-9]*$/.test(port)) return `invalid port ${goQuote(port)} after host`;
    h = h.slice(1, end);
  } else {
    const colon = h.lastIndexOf(':');
    if (colon >= 0) {
      const port = h.slice(colon);
      if (!/^:[0-9]*$/.test(port)) return `invalid port ${goQuote(port)} after host`;
      h = h.slice(0, colon);
    }
  }
  for (const c of h) if (c.charCodeAt(0) < 0x80 && c !== '%' && !HOST_CHAR.test(c)) return `invalid character ${goQuote(c)} in host name`;
  return undefined;
}

/** Go's `url.Parse`: the parts, or the error text (`parse "<url>": <reason>`). */
export function parseGoURL(raw: string): GoURL | string {
  const hash = raw.indexOf('#');
  const base = hash < 0 ? raw : raw.slice(0, hash);
  const fragment = hash < 0 ? '' : raw.slice(hash + 1);
  const fail = (reason: string) => `parse ${goQuote(base)}: ${reason}`;
  if (CONTROL.test(base)) return fail('net/url: invalid control character in URL');
  const s = schemeOf(base);
  if (typeof s === 'string') return fail(s);
  let rest = s.rest;
  let rawQuery = '';
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) rest = rest.slice(0, -1);
  else if (rest.includes('?')) [rest, rawQuery] = [rest.slice(0, rest.indexOf('?')), rest.slice(rest.indexOf('?') + 1)];
  const url: GoURL = { scheme: s.scheme.toLowerCase(), user: undefined, host: '', rawQuery, fragment };
  if (!rest.startsWith('/')) {
    if (s.scheme !== '') return url;
    if ((rest.split('/')[0] ?? '').includes(':')) return fail('first path segment in URL cannot contain colon');
  }
  if (rest.startsWith('//') && (s.scheme !== '' || !rest.startsWith('///'))) {
    const slash = rest.indexOf('/', 2);
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    const at = authority.lastIndexOf('@');
    const host = at < 0 ? authority : authority.slice(at + 1);
    const err = hostError(host);
    if (err) return fail(err);
    url.host = host;
    if (at >= 0) url.user = authority.slice(0, at);
  }
  return url;
}

const FORM = '; desired format: https://host[/path]';

/** `clientConfig.url`: a valid https URL with a host and no user information, query or fragment. */
export function validateWebhookURL(path: FieldPath, raw: string): FieldError[] {
  const u = parseGoURL(raw);
  if (typeof u === 'string') return [required(path, `url must be a valid URL: ${u}${FORM}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(invalid(path, u.scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (u.host === '') errs.push(invalid(path, u.host, `host must be provided${FORM}`));
  if (u.user !== undefined) errs.push(invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment !== '') errs.push(invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery !== '') errs.push(invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/**
 * `clientConfig.service` (upstream `ValidateWebhookService(path, namespace, name, path, port)`):
 * name and namespace required, a valid port, a path of DNS-subdomain segments. Upstream's
 * admissionregistration validation passes the service's name and namespace in swapped order, so
 * a missing namespace is reported as `name: … service name is required` and the other way
 * round; reproduced as is.
 */
export function validateWebhookService(path: FieldPath, service: { name: string; namespace: string; path: string | undefined; port: number }): FieldError[] {
  const errs: FieldError[] = [];
  if (service.namespace === '') errs.push(required(path.child('name'), 'service name is required'));
  if (service.name === '') errs.push(required(path.child('namespace'), 'service namespace is required'));
  const portErrs = isValidPortNum(service.port);
  if (portErrs.length > 0) errs.push(invalid(path.child('port'), service.port, `port is not valid: ${portErrs.join(', ')}`));
  const urlPath = service.path;
  if (urlPath === undefined || urlPath === '/' || urlPath === '') return errs;
  const p = path.child('path');
  if (urlPath === '//') return [...errs, invalid(p, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(invalid(p, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step === '') {
      errs.push(invalid(p, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const m of isDNS1123Subdomain(step)) errs.push(invalid(p, urlPath, `segment[${i}]: ${m}`));
  });
  return errs;
}
