/**
 * The AuthorizationConfiguration document of `--authorization-config` (spec 001 § Authorization,
 * § Limits): `apiVersion: apiserver.config.<vendor>/v1beta1` (or `v1alpha1`, both read by upstream
 * 1.30), `kind: AuthorizationConfiguration`, an ordered `authorizers[]` of `type` and `name`, each
 * Webhook with its `webhook` settings. Decoded strictly (unknown or duplicate fields are errors),
 * defaulted (authorizedTTL 5m0s, unauthorizedTTL 30s) and validated with upstream's messages
 * (ValidateAuthorizationConfiguration, then kube-apiserver's own checks: the name of a non-Webhook
 * authorizer is its type in lower case, and a reload keeps every non-Webhook type of the first
 * file). Match conditions are compiled here, once per load.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { APISERVER_CONFIG_GROUP, canonicalGroup } from '../../apis/vendor.js';
import { DurationError, formatDuration, parseDuration } from '../../apimachinery/duration.js';
import {
  type FieldError,
  FieldPath,
  duplicate,
  fieldErrorString,
  invalid,
  notSupported,
  required,
  tooMany,
} from '../../apimachinery/field-errors.js';
import { ConfigDecodeError, decodeConfigDocument } from '../../apimachinery/serializers/config-document.js';
import { goJSONTypeName } from '../../apimachinery/serializers/go-json-errors.js';
import { isDNS1123Subdomain } from '../../apimachinery/validation/names.js';
import type { Program } from '../../cel/index.js';
import { MAX_MATCH_CONDITIONS, MatchConditions, compileMatchCondition } from '../webhook/match-conditions.js';

/** The document's kind. */
export const AUTHORIZATION_CONFIGURATION_KIND = 'AuthorizationConfiguration';
/** Versions of {@link APISERVER_CONFIG_GROUP} the document may use. */
export const AUTHORIZATION_CONFIGURATION_VERSIONS: readonly string[] = ['v1beta1', 'v1alpha1'];
/** Authorizer types the file may name (upstream: every mode of `--authorization-mode`). */
export const AUTHORIZER_TYPES: readonly string[] = ['ABAC', 'AlwaysAllow', 'AlwaysDeny', 'Node', 'RBAC', 'Webhook'];
/** Types that may appear more than once. */
export const REPEATABLE_AUTHORIZER_TYPES: readonly string[] = ['Webhook'];
/** Largest `timeout` (milliseconds): 30 s. */
export const MAX_WEBHOOK_TIMEOUT_MS = 30_000;
/** `connectionInfo.type` values: upstream's, plus `KubeConfig` as spec 001 names it (same meaning). */
export const CONNECTION_INFO_TYPES = { kubeConfigFile: 'KubeConfigFile', inCluster: 'InClusterConfig', specAlias: 'KubeConfig' } as const;

/** `authorizers[].webhook`. Durations in milliseconds (0 = not given). */
export interface WebhookConfiguration {
  authorizedTTLMs: number;
  unauthorizedTTLMs: number;
  timeoutMs: number;
  subjectAccessReviewVersion: string;
  matchConditionSubjectAccessReviewVersion: string;
  failurePolicy: string;
  connectionInfo: { type: string; kubeConfigFile?: string };
  matchConditions: Array<{ expression: string }>;
}

/** One `authorizers[]` entry. */
export interface AuthorizerConfiguration {
  type: string;
  name: string;
  webhook?: WebhookConfiguration;
}

/** The decoded document. */
export interface AuthorizationConfiguration {
  authorizers: AuthorizerConfiguration[];
}

/** A validated configuration with each webhook's compiled match conditions (by authorizer index). */
export interface LoadedAuthorizationConfiguration {
  config: AuthorizationConfiguration;
  matchConditions: ReadonlyMap<number, MatchConditions>;
}


/** Walks the raw document, collecting unknown fields and the first type error. */
class Reader {
  readonly unknown: string[] = [];
  typeError: string | undefined;

  object(v: unknown, where: string, goType: string, fields: readonly string[]): Record<string, unknown> {
    if (v === undefined || v === null) return {};
    if (typeof v !== 'object' || Array.isArray(v)) {
      this.mismatch(v, where, goType);
      return {};
    }
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) if (!fields.includes(k)) this.unknown.push(where ? `${where}.${k}` : k);
    return o;
  }

  string(v: unknown, where: string): string {
    if (typeof v === 'string') return v;
    if (v !== undefined && v !== null) this.mismatch(v, where, 'string');
    return '';
  }

  duration(v: unknown, where: string): number {
    if (v === undefined || v === null) return 0;
    if (typeof v !== 'string') {
      this.mismatch(v, where, 'v1.Duration');
      return 0;
    }
    try {
      return parseDuration(v);
    } catch (err) {
      if (err instanceof DurationError) this.typeError ??= err.message;
      else throw err;
      return 0;
    }
  }

  list(v: unknown, where: string, goType: string): unknown[] {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      this.mismatch(v, where, goType);
      return [];
    }
    return v;
  }

  private mismatch(v: unknown, where: string, goType: string): void {
    this.typeError ??= `json: cannot unmarshal ${goJSONTypeName(v)} into Go struct field ${where.replace(/\[\d+\]/g, '')} of type ${goType}`;
  }
}

/**
 * Decodes the file content: JSON when it starts with `{`, YAML otherwise; webhook TTLs defaulted
 * (5m0s, 30s).
 * @throws ConfigDecodeError for empty data, a syntax error, a wrong apiVersion or kind, unknown or
 *   duplicate fields, or a wrongly typed value.
 */
export function decodeAuthorizationConfiguration(data: string): AuthorizationConfiguration {
  if (data.trim().length === 0) throw new ConfigDecodeError('empty config data');
  const { raw, duplicates } = decodeConfigDocument(data, { kind: AUTHORIZATION_CONFIGURATION_KIND, group: APISERVER_CONFIG_GROUP, versions: AUTHORIZATION_CONFIGURATION_VERSIONS, canonicalGroup, unregisteredSuffix: ' in scheme "pkg/runtime/scheme.go:100"' });

  const r = new Reader();
  const top = r.object(raw, '', AUTHORIZATION_CONFIGURATION_KIND, ['apiVersion', 'kind', 'authorizers']);
  const authorizers = r.list(top.authorizers, 'AuthorizationConfiguration.authorizers', '[]v1beta1.AuthorizerConfiguration').map((item, i) => {
    const at = `authorizers[${i}]`;
    const a = r.object(item, at, 'v1beta1.AuthorizerConfiguration', ['type', 'name', 'webhook']);
    const out: AuthorizerConfiguration = { type: r.string(a.type, `AuthorizerConfiguration.${at}.type`), name: r.string(a.name, `AuthorizerConfiguration.${at}.name`) };
    if (a.webhook !== undefined && a.webhook !== null) out.webhook = readWebhook(r, a.webhook, `${at}.webhook`);
    return out;
  });
  if (r.typeError !== undefined) throw new ConfigDecodeError(r.typeError);
  const strict = [...r.unknown.map((f) => `unknown field ${JSON.stringify(f)}`), ...duplicates.map((f) => `duplicate field ${JSON.stringify(f)}`)];
  if (strict.length > 0) throw new ConfigDecodeError(`strict decoding error: ${strict.join(', ')}`);
  return { authorizers };
}

function readWebhook(r: Reader, raw: unknown, at: string): WebhookConfiguration {
  const w = r.object(raw, at, 'v1beta1.WebhookConfiguration', [
    'authorizedTTL',
    'unauthorizedTTL',
    'timeout',
    'subjectAccessReviewVersion',
    'matchConditionSubjectAccessReviewVersion',
    'failurePolicy',
    'connectionInfo',
    'matchConditions',
  ]);
  const go = `WebhookConfiguration.${at}`;
  const ci = r.object(w.connectionInfo, `${at}.connectionInfo`, 'v1beta1.WebhookConnectionInfo', ['type', 'kubeConfigFile']);
  const kubeConfigFile = ci.kubeConfigFile === undefined || ci.kubeConfigFile === null ? undefined : r.string(ci.kubeConfigFile, `${go}.connectionInfo.kubeConfigFile`);
  const authorizedTTLMs = r.duration(w.authorizedTTL, `${go}.authorizedTTL`);
  const unauthorizedTTLMs = r.duration(w.unauthorizedTTL, `${go}.unauthorizedTTL`);
  return {
    authorizedTTLMs: authorizedTTLMs === 0 ? 5 * 60_000 : authorizedTTLMs,
    unauthorizedTTLMs: unauthorizedTTLMs === 0 ? 30_000 : unauthorizedTTLMs,
    timeoutMs: r.duration(w.timeout, `${go}.timeout`),
    subjectAccessReviewVersion: r.string(w.subjectAccessReviewVersion, `${go}.subjectAccessReviewVersion`),
    matchConditionSubjectAccessReviewVersion: r.string(w.matchConditionSubjectAccessReviewVersion, `${go}.matchConditionSubjectAccessReviewVersion`),
    failurePolicy: r.string(w.failurePolicy, `${go}.failurePolicy`),
    connectionInfo: { type: r.string(ci.type, `${go}.connectionInfo.type`), ...(kubeConfigFile !== undefined && { kubeConfigFile }) },
    matchConditions: r.list(w.matchConditions, `${go}.matchConditions`, '[]v1beta1.WebhookMatchCondition').map((m, i) => {
      const c = r.object(m, `${at}.matchConditions[${i}]`, 'v1beta1.WebhookMatchCondition', ['expression']);
      return { expression: r.string(c.expression, `${go}.matchConditions.expression`) };
    }),
  };
}

/**
 * Upstream's ValidateAuthorizationConfiguration (field paths `authorizers[i].…`; a webhook's
 * fields sit directly under its authorizer, as upstream reports them). Compiles match conditions.
 */
export async function validateAuthorizationConfiguration(c: AuthorizationConfiguration): Promise<{ errors: FieldError[]; matchConditions: Map<number, MatchConditions> }> {
  const errors: FieldError[] = [];
  const matchConditions = new Map<number, MatchConditions>();
  if (c.authorizers.length === 0) errors.push(required('authorizers', 'at least one authorization mode must be defined'));
  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  for (const [i, a] of c.authorizers.entries()) {
    const at = FieldPath.of('authorizers').index(i);
    if (a.type === '') {
      errors.push(required(at.child('type')));
      continue;
    }
    if (!AUTHORIZER_TYPES.includes(a.type)) {
      errors.push(notSupported(at.child('type'), a.type, AUTHORIZER_TYPES));
      continue;
    }
    if (seenTypes.has(a.type) && !REPEATABLE_AUTHORIZER_TYPES.includes(a.type)) {
      errors.push(duplicate(at.child('type'), a.type));
      continue;
    }
    seenTypes.add(a.type);
    if (a.name === '') errors.push(required(at.child('name')));
    else if (seenNames.has(a.name)) errors.push(duplicate(at.child('name'), a.name));
    else {
      const bad = isDNS1123Subdomain(a.name);
      if (bad.length > 0) errors.push(invalid(at.child('name'), a.name, `authorizer name is invalid: ${bad.join(', ')}`));
    }
    seenNames.add(a.name);
    if (a.type === 'Webhook') {
      if (!a.webhook) {
        errors.push(required(at.child('webhook'), 'required when type=Webhook'));
        continue;
      }
      const { errors: werrs, conditions } = await validateWebhook(a.webhook, at);
      errors.push(...werrs);
      if (conditions) matchConditions.set(i, conditions);
    } else if (a.webhook) {
      errors.push(invalid(at.child('webhook'), 'non-null', 'may only be specified when type=Webhook'));
    }
  }
  return { errors, matchConditions };
}

async function validateWebhook(w: WebhookConfiguration, at: FieldPath): Promise<{ errors: FieldError[]; conditions?: MatchConditions }> {
  const errors: FieldError[] = [];
  if (w.timeoutMs === 0) errors.push(required(at.child('timeout')));
  else if (w.timeoutMs > MAX_WEBHOOK_TIMEOUT_MS || w.timeoutMs < 0) errors.push(invalid(at.child('timeout'), formatDuration(w.timeoutMs), 'must be > 0s and <= 30s'));
  if (w.authorizedTTLMs < 0) errors.push(invalid(at.child('authorizedTTL'), formatDuration(w.authorizedTTLMs), 'must be > 0s'));
  if (w.unauthorizedTTLMs < 0) errors.push(invalid(at.child('unauthorizedTTL'), formatDuration(w.unauthorizedTTLMs), 'must be > 0s'));
  if (w.subjectAccessReviewVersion === '') errors.push(required(at.child('subjectAccessReviewVersion')));
  else if (w.subjectAccessReviewVersion !== 'v1' && w.subjectAccessReviewVersion !== 'v1beta1') {
    errors.push(notSupported(at.child('subjectAccessReviewVersion'), w.subjectAccessReviewVersion, ['v1', 'v1beta1']));
  }
  if (w.matchConditionSubjectAccessReviewVersion === '') {
    if (w.matchConditions.length > 0) errors.push(required(at.child('matchConditionSubjectAccessReviewVersion'), 'required if match conditions are specified'));
  } else if (w.matchConditionSubjectAccessReviewVersion !== 'v1') {
    errors.push(notSupported(at.child('matchConditionSubjectAccessReviewVersion'), w.matchConditionSubjectAccessReviewVersion, ['v1']));
  }
  if (w.failurePolicy === '') errors.push(required(at.child('failurePolicy')));
  else if (w.failurePolicy !== 'NoOpinion' && w.failurePolicy !== 'Deny') errors.push(notSupported(at.child('failurePolicy'), w.failurePolicy, ['NoOpinion', 'Deny']));
  const ci = w.connectionInfo;
  const file = ci.kubeConfigFile;
  const filePath = at.child('connectionInfo').child('kubeConfigFile');
  if (ci.type === '') errors.push(required(at.child('connectionInfo').child('type')));
  else if (ci.type === CONNECTION_INFO_TYPES.inCluster) {
    if (file !== undefined) errors.push(invalid(filePath, file, 'can only be set when type=KubeConfigFile'));
  } else if (ci.type === CONNECTION_INFO_TYPES.kubeConfigFile || ci.type === CONNECTION_INFO_TYPES.specAlias) {
    if (file === undefined || file === '') errors.push(required(filePath));
    else if (!path.isAbsolute(file)) errors.push(invalid(filePath, file, 'must be an absolute path'));
    else {
      try {
        if (!(await stat(file)).isFile()) errors.push(invalid(filePath, file, 'must be a regular file'));
      } catch (err) {
        errors.push(invalid(filePath, file, `error loading file: stat ${file}: ${goErrno(err as NodeJS.ErrnoException)}`));
      }
    }
  } else {
    errors.push(notSupported(at.child('connectionInfo').child('type'), ci.type, [CONNECTION_INFO_TYPES.inCluster, CONNECTION_INFO_TYPES.kubeConfigFile]));
  }
  if (w.matchConditions.length > MAX_MATCH_CONDITIONS) {
    errors.push(tooMany(at.child('matchConditions'), w.matchConditions.length, MAX_MATCH_CONDITIONS));
    return { errors };
  }
  const seen = new Set<string>();
  const programs: Program[] = [];
  for (const [i, m] of w.matchConditions.entries()) {
    const p = at.child('matchConditions').index(i).child('expression');
    if (m.expression.trim() === '') {
      errors.push(required(p));
      continue;
    }
    if (seen.has(m.expression)) {
      errors.push(duplicate(p, m.expression));
      continue;
    }
    seen.add(m.expression);
    const compiled = compileMatchCondition(m.expression);
    if (typeof compiled === 'string') errors.push(invalid(p, m.expression, compiled));
    else programs.push(compiled);
  }
  return { errors, ...(programs.length > 0 && { conditions: new MatchConditions(programs) }) };
}

/** Go's text of a file system error (`no such file or directory`). */
function goErrno(err: NodeJS.ErrnoException): string {
  if (err.code === 'ENOENT') return 'no such file or directory';
  if (err.code === 'EACCES') return 'permission denied';
  return err.message;
}

/** The name kube-apiserver requires for a non-Webhook authorizer: its type in lower case. */
export function nameForAuthorizerType(type: string): string {
  return type.toLowerCase();
}

/**
 * Decodes and validates file content as kube-apiserver does (LoadAndValidateData): the document,
 * upstream's validation, the lower-case names of non-Webhook authorizers, no `InClusterConfig`
 * connection (the API server does not allow it) and, on reload, every non-Webhook type of the
 * first file (`requireTypes`).
 * @throws Error with upstream's message: `failed to load AuthorizationConfiguration from file: …`,
 *   the aggregated field errors, `expected name node for authorizer Node instead of x`,
 *   `missing required types: [Node]`.
 */
export async function loadAuthorizationConfiguration(data: string, requireTypes: ReadonlySet<string> = new Set()): Promise<LoadedAuthorizationConfiguration> {
  let config: AuthorizationConfiguration;
  try {
    config = decodeAuthorizationConfiguration(data);
  } catch (err) {
    if (err instanceof ConfigDecodeError) throw new Error(`failed to load AuthorizationConfiguration from file: ${err.message}`, { cause: err });
    throw err;
  }
  const { errors, matchConditions } = await validateAuthorizationConfiguration(config);
  if (errors.length > 0) throw new Error(aggregate(errors.map(fieldErrorString)));
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [i, a] of config.authorizers.entries()) {
    if (a.webhook?.connectionInfo.type === CONNECTION_INFO_TYPES.inCluster) {
      // The API server cannot call itself for SubjectAccessReviews (spec 001 § Authorization).
      problems.push(fieldErrorString(notSupported(FieldPath.of('authorizers').index(i).child('connectionInfo', 'type'), a.webhook.connectionInfo.type, [CONNECTION_INFO_TYPES.kubeConfigFile])));
    }
    if (a.type === 'Webhook') continue;
    seen.add(a.type);
    const expected = nameForAuthorizerType(a.type);
    if (a.name !== expected) problems.push(`expected name ${expected} for authorizer ${a.type} instead of ${a.name}`);
  }
  const missing = [...requireTypes].filter((t) => !seen.has(t)).sort();
  if (missing.length > 0) problems.push(`missing required types: [${missing.join(' ')}]`);
  if (problems.length > 0) throw new Error(aggregate(problems));
  return { config, matchConditions };
}

/** Upstream's error aggregate: one message alone, several (duplicates dropped) as `[a, b]`. */
function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
