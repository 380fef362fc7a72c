/**
 * Validation of an AuthenticationConfiguration, with upstream's rules and messages (spec 001
 * § Authentication configuration file; upstream `ValidateAuthenticationConfiguration`, 1.30):
 * at most 64 JWT authenticators; issuer URLs https, without user info, query or fragment, unique
 * and not one of the service-account issuers; discovery URLs likewise, unique and different from
 * the issuer URL; audiences with `audienceMatchPolicy`; a CA bundle that parses; claim validation
 * rules, claim mappings (claim + prefix or expression, the email-verified rule), extra keys and
 * user validation rules. Every expression is compiled here, once: the result carries the programs
 * the authenticator evaluates.
 */
import { X509Certificate } from 'node:crypto';
import type { Program } from '../../cel/index.js';
import { selectsField } from '../../cel/index.js';
import {
  type FieldError,
  FieldPath,
  duplicate,
  fieldErrorString,
  invalid,
  required,
  tooMany,
} from '../../apimachinery/field-errors.js';
import { isDNS1123Subdomain, regexError } from '../../apimachinery/validation/names.js';
import { CLAIMS_VARIABLE, type ResultKind, claimsEnvironment, compileExpression, userEnvironment } from './cel.js';
import type {
  AuthenticationConfiguration,
  ClaimMappings,
  ClaimValidationRule,
  Issuer,
  JWTAuthenticatorConfig,
  PrefixedClaimOrExpression,
  UserValidationRule,
} from './config.js';
import { parseGoURL } from './go-url.js';

/** Most JWT authenticators one configuration may hold. */
export const MAX_JWT_AUTHENTICATORS = 64;
/** The only audience match policy. */
export const AUDIENCE_MATCH_POLICY_MATCH_ANY = 'MatchAny';

/** A compiled rule: its expression, the message shown when it is false, the program. */
export interface CompiledRule {
  expression: string;
  message: string;
  program: Program;
}

/** A compiled extra mapping. */
export interface CompiledExtra {
  key: string;
  program: Program;
}

/** One validated JWT authenticator with its compiled expressions (absent: configured by claim, or not at all). */
export interface CompiledJWTAuthenticator {
  config: JWTAuthenticatorConfig;
  claimValidationRules: CompiledRule[];
  username?: Program;
  groups?: Program;
  uid?: Program;
  extra: CompiledExtra[];
  userValidationRules: CompiledRule[];
}

/** The outcome of validating a configuration: its errors, and the compiled authenticators when there are none. */
export interface ValidationResult {
  errors: FieldError[];
  authenticators: CompiledJWTAuthenticator[];
}

const EMAIL_VERIFIED_MESSAGE =
  'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression';

/**
 * Validates `config` and compiles its expressions. `disallowedIssuers`: issuer URLs no
 * authenticator may use (the service-account issuers).
 */
export function validateAuthenticationConfiguration(config: AuthenticationConfiguration, disallowedIssuers: readonly string[] = []): ValidationResult {
  const root = FieldPath.of('jwt');
  if (config.jwt.length > MAX_JWT_AUTHENTICATORS) return { errors: [tooMany(root, config.jwt.length, MAX_JWT_AUTHENTICATORS)], authenticators: [] };
  const errors: FieldError[] = [];
  const authenticators: CompiledJWTAuthenticator[] = [];
  const seenIssuers = new Set<string>();
  const seenDiscoveryURLs = new Set<string>();
  const disallowed = [...new Set(disallowedIssuers)].sort();
  config.jwt.forEach((a, i) => {
    const path = root.index(i);
    const { errors: errs, compiled } = validateJWTAuthenticator(a, path, disallowed);
    errors.push(...errs);
    authenticators.push(compiled);
    if (seenIssuers.has(a.issuer.url)) errors.push(duplicate(path.child('issuer', 'url'), a.issuer.url));
    seenIssuers.add(a.issuer.url);
    if (a.issuer.discoveryURL !== '') {
      if (seenDiscoveryURLs.has(a.issuer.discoveryURL)) errors.push(duplicate(path.child('issuer', 'discoveryURL'), a.issuer.discoveryURL));
      seenDiscoveryURLs.add(a.issuer.discoveryURL);
    }
  });
  return { errors, authenticators: errors.length === 0 ? authenticators : [] };
}

/**
 * Go's aggregate of field errors: the one message, or `[m1, m2]` for several (repeats dropped).
 */
export function aggregateMessage(errors: readonly FieldError[]): string {
  const messages = [...new Set(errors.map(fieldErrorString))];
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}

function validateJWTAuthenticator(
  a: JWTAuthenticatorConfig,
  path: FieldPath,
  disallowed: readonly string[],
): { errors: FieldError[]; compiled: CompiledJWTAuthenticator } {
  const compiled: CompiledJWTAuthenticator = { config: a, claimValidationRules: [], extra: [], userValidationRules: [] };
  const errors = [
    ...validateIssuer(a.issuer, disallowed, path.child('issuer')),
    ...validateClaimValidationRules(a.claimValidationRules, path.child('claimValidationRules'), compiled),
    ...validateClaimMappings(a.claimMappings, path.child('claimMappings'), compiled),
    ...validateUserValidationRules(a.userValidationRules, path.child('userValidationRules'), compiled),
  ];
  return { errors, compiled };
}

function validateIssuer(issuer: Issuer, disallowed: readonly string[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const url = path.child('url');
  if (issuer.url === '') errors.push(required(url, 'URL is required'));
  else errors.push(...validateURL(issuer.url, disallowed, url));
  if (issuer.discoveryURL !== '') {
    const d = path.child('discoveryURL');
    if (issuer.url !== '' && issuer.url.replace(/\/+$/, '') === issuer.discoveryURL.replace(/\/+$/, '')) {
      errors.push(invalid(d, issuer.discoveryURL, 'discoveryURL must be different from URL'));
    }
    errors.push(...validateURL(issuer.discoveryURL, [], d));
  }
  errors.push(...validateAudiences(issuer.audiences, issuer.audienceMatchPolicy, path.child('audiences'), path.child('audienceMatchPolicy')));
  if (issuer.certificateAuthority !== '') {
    const problem = certificateBundleProblem(issuer.certificateAuthority);
    if (problem) errors.push(invalid(path.child('certificateAuthority'), '<omitted>', problem));
  }
  return errors;
}

function validateURL(raw: string, disallowed: readonly string[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (disallowed.includes(raw)) errors.push(invalid(path, raw, `URL must not overlap with disallowed issuers: [${disallowed.join(' ')}]`));
  let u;
  try {
    u = parseGoURL(raw);
  } catch (err) {
    errors.push(invalid(path, raw, (err as Error).message));
    return errors;
  }
  if (u.scheme !== 'https') errors.push(invalid(path, raw, 'URL scheme must be https'));
  if (u.hasUser) errors.push(invalid(path, raw, 'URL must not contain a username or password'));
  if (u.rawQuery !== '') errors.push(invalid(path, raw, 'URL must not contain a query'));
  if (u.fragment !== '') errors.push(invalid(path, raw, 'URL must not contain a fragment'));
  return errors;
}

function validateAudiences(audiences: readonly string[], policy: string, path: FieldPath, policyPath: FieldPath): FieldError[] {
  if (audiences.length === 0) return [required(path, `at least one ${path} is required`)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  audiences.forEach((aud, i) => {
    if (aud === '') errors.push(required(path.index(i), "audience can't be empty"));
    if (seen.has(aud)) errors.push(duplicate(path.index(i), aud));
    seen.add(aud);
  });
  if (audiences.length > 1 && policy !== AUDIENCE_MATCH_POLICY_MATCH_ANY) {
    errors.push(invalid(policyPath, policy, 'audienceMatchPolicy must be MatchAny for multiple audiences'));
  }
  if (audiences.length === 1 && policy !== '' && policy !== AUDIENCE_MATCH_POLICY_MATCH_ANY) {
    errors.push(invalid(policyPath, policy, 'audienceMatchPolicy must be empty or MatchAny for single audience'));
  }
  return errors;
}

/**
 * The problem with a PEM CA bundle, as upstream's certificate pool reports it, or undefined when
 * it holds at least one certificate and every CERTIFICATE block parses.
 */
export function certificateBundleProblem(pem: string): string | undefined {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (err) {
      return `x509: ${(err as Error).message}`;
    }
  }
  return blocks.length === 0 ? 'data does not contain any valid RSA or ECDSA certificates' : undefined;
}

function compileInto(expression: string, kind: ResultKind, env: 'claims' | 'user', path: FieldPath, errors: FieldError[]): Program | undefined {
  const program = compileExpression(expression, env === 'claims' ? claimsEnvironment() : userEnvironment(), kind);
  if (typeof program === 'string') {
    errors.push(invalid(path, expression, program));
    return undefined;
  }
  return program;
}

const usesClaim = (program: Program | undefined, claim: string): boolean => program !== undefined && selectsField(program, CLAIMS_VARIABLE, claim);

function validateClaimValidationRules(rules: readonly ClaimValidationRule[], path: FieldPath, out: CompiledJWTAuthenticator): FieldError[] {
  const errors: FieldError[] = [];
  const seenClaims = new Set<string>();
  const seenExpressions = new Set<string>();
  rules.forEach((rule, i) => {
    const p = path.index(i);
    if (rule.claim !== '' && rule.expression !== '') {
      errors.push(invalid(p, rule.claim, "claim and expression can't both be set"));
    } else if (rule.claim === '' && rule.expression === '') {
      errors.push(required(p, 'claim or expression is required'));
    } else if (rule.claim !== '') {
      if (rule.message !== '') errors.push(invalid(p.child('message'), rule.message, "message can't be set when claim is set"));
      if (seenClaims.has(rule.claim)) errors.push(duplicate(p.child('claim'), rule.claim));
      seenClaims.add(rule.claim);
    } else {
      if (rule.requiredValue !== '') errors.push(invalid(p.child('requiredValue'), rule.requiredValue, "requiredValue can't be set when expression is set"));
      if (seenExpressions.has(rule.expression)) {
        errors.push(duplicate(p.child('expression'), rule.expression));
        return;
      }
      seenExpressions.add(rule.expression);
      const program = compileInto(rule.expression, 'bool', 'claims', p.child('expression'), errors);
      if (program) out.claimValidationRules.push({ expression: rule.expression, message: rule.message, program });
    }
  });
  return errors;
}

function validatePrefixClaimOrExpression(m: PrefixedClaimOrExpression, path: FieldPath, claimOrExpressionRequired: boolean, kind: ResultKind, errors: FieldError[]): Program | undefined {
  if (m.expression !== '' && m.claim !== '') {
    errors.push(invalid(path, '', "claim and expression can't both be set"));
  } else if (m.expression === '' && m.claim === '') {
    if (claimOrExpressionRequired) errors.push(required(path, 'claim or expression is required'));
  } else if (m.expression !== '') {
    if (m.prefix !== undefined) errors.push(invalid(path.child('prefix'), m.prefix, "prefix can't be set when expression is set"));
    return compileInto(m.expression, kind, 'claims', path.child('expression'), errors);
  } else if (m.prefix === undefined) {
    errors.push(required(path.child('prefix'), 'prefix is required when claim is set. It can be set to an empty string to disable prefixing'));
  }
  return undefined;
}

function validateClaimMappings(m: ClaimMappings, path: FieldPath, out: CompiledJWTAuthenticator): FieldError[] {
  const errors: FieldError[] = [];
  let usesEmailVerified = out.claimValidationRules.some((r) => usesClaim(r.program, 'email_verified'));
  out.username = validatePrefixClaimOrExpression(m.username, path.child('username'), true, 'string', errors);
  const usesEmail = usesClaim(out.username, 'email');
  usesEmailVerified ||= usesClaim(out.username, 'email_verified');
  out.groups = validatePrefixClaimOrExpression(m.groups, path.child('groups'), false, 'stringOrList', errors);

  const uid = path.child('uid');
  if (m.uid.claim !== '' && m.uid.expression !== '') errors.push(invalid(uid, '', "claim and expression can't both be set"));
  else if (m.uid.expression !== '') out.uid = compileInto(m.uid.expression, 'string', 'claims', uid.child('expression'), errors);

  const seenKeys = new Set<string>();
  m.extra.forEach((mapping, i) => {
    const p = path.child('extra').index(i);
    const key = p.child('key');
    errors.push(...isDomainPrefixedPath(key, mapping.key));
    if (mapping.key !== mapping.key.toLowerCase()) errors.push(invalid(key, mapping.key, 'key must be lowercase'));
    if (seenKeys.has(mapping.key)) {
      errors.push(duplicate(key, mapping.key));
      return;
    }
    seenKeys.add(mapping.key);
    if (mapping.valueExpression === '') {
      errors.push(required(p.child('valueExpression'), 'valueExpression is required'));
      return;
    }
    const program = compileInto(mapping.valueExpression, 'stringOrList', 'claims', p.child('valueExpression'), errors);
    if (program) {
      out.extra.push({ key: mapping.key, program });
      usesEmailVerified ||= usesClaim(program, 'email_verified');
    }
  });

  if (usesEmail && !usesEmailVerified) errors.push(invalid(path.child('username', 'expression'), m.username.expression, EMAIL_VERIFIED_MESSAGE));
  return errors;
}

function validateUserValidationRules(rules: readonly UserValidationRule[], path: FieldPath, out: CompiledJWTAuthenticator): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  rules.forEach((rule, i) => {
    const p = path.index(i).child('expression');
    if (rule.expression === '') {
      errors.push(required(p, 'expression is required'));
      return;
    }
    if (seen.has(rule.expression)) {
      errors.push(duplicate(p, rule.expression));
      return;
    }
    seen.add(rule.expression);
    const program = compileInto(rule.expression, 'bool', 'user', p, errors);
    if (program) out.userValidationRules.push({ expression: rule.expression, message: rule.message, program });
  });
  return errors;
}

/** An HTTP path after the domain of an extra key (upstream `httpPathFmt`). */
const HTTP_PATH = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH_RE = new RegExp(`^${HTTP_PATH}$`);

/** Upstream `IsDomainPrefixedPath`: `<dns subdomain>/<http path>`, both non-empty. */
function isDomainPrefixedPath(path: FieldPath, value: string): FieldError[] {
  if (value === '') return [required(path)];
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = value.slice(0, slash);
  const rest = value.slice(slash + 1);
  const errors = isDNS1123Subdomain(host).map((msg) => invalid(path, host, msg));
  if (!HTTP_PATH_RE.test(rest)) errors.push(invalid(path, rest, regexError('Invalid path', HTTP_PATH)));
  return errors;
}
