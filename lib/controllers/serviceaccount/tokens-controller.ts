/**
 * The tokens controller (`serviceaccount-token-controller`, on by default; spec 001 § Principals
 * and attributes, § Methods: "credentials held in Secrets"; upstream pkg/controller/serviceaccount
 * `TokensController`, v1.30): a Secret of type `<vendor>.io/service-account-token` whose
 * service-account-name annotation names an existing ServiceAccount gets `data.token` (a legacy
 * token signed for that account and Secret), `data.ca.crt` (the cluster CA bundle, when known) and
 * `data.namespace`, and the account's uid annotation. A token Secret whose account does not exist
 * (or has another uid than the annotation says) is deleted, and so are an account's token Secrets
 * when the account is deleted. Every delete carries the Secret's uid as precondition.
 */
import { isReason } from '../../apimachinery/errors.js';
import type { Obj } from '../../apis/define.js';
import { SECRET_TYPE, SERVICE_ACCOUNT_NAME_ANNOTATION, SERVICE_ACCOUNT_TOKEN_KEY, SERVICE_ACCOUNT_UID_ANNOTATION } from '../../apis/core/v1/secret-types.js';
import type { Informer } from '../../client/informer.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { WorkQueue } from '../queue.js';
import { updateObject } from '../writes.js';

/** Signs the legacy token of ServiceAccount `sa` (a stored object) held by Secret `secretName`; resolves to the compact JWT. */
export type LegacyTokenSigner = (sa: Obj, secretName: string) => Promise<string>;

/** What the controller works with. */
export interface TokensControllerConfig {
  /** Secrets of every namespace. */
  secrets: Informer;
  /** ServiceAccounts of every namespace. */
  serviceAccounts: Informer;
  /** The Secret store the controller writes through. */
  secretStore: Store;
  /** The ServiceAccount store (read when the informer has not seen an account yet). */
  serviceAccountStore: Store;
  /** Signs legacy tokens. */
  sign: LegacyTokenSigner;
  /** The PEM CA bundle put in `ca.crt`; absent: no `ca.crt`. */
  rootCAPem?: string;
  /** Context of the controller's writes (a privileged internal user). */
  ctx: RequestContext;
  onError: (err: unknown) => void;
}

const meta = (o: Obj): Obj => (o.metadata ?? {}) as Obj;
const annotations = (o: Obj): Record<string, string> => (meta(o).annotations ?? {}) as Record<string, string>;
const isTokenSecret = (o: Obj): boolean => o.type === SECRET_TYPE.serviceAccountToken;
const keyOf = (o: Obj): string => `${meta(o).namespace as string}/${meta(o).name as string}`;

/** Whether token Secret `secret` belongs to account `name` (uid `uid`): the name matches, and the uid annotation when set (upstream `IsServiceAccountToken`). */
function belongsTo(secret: Obj, name: string, uid: string): boolean {
  const a = annotations(secret);
  if (a[SERVICE_ACCOUNT_NAME_ANNOTATION] !== name) return false;
  const want = a[SERVICE_ACCOUNT_UID_ANNOTATION];
  return !want || want === uid;
}

/** Queue keys: `secret/<ns>/<name>` or `sa/<ns>/<name>/<uid>` (a deleted account's uid, to find its Secrets). */
const SECRET_KEY = 'secret/';
const ACCOUNT_KEY = 'sa/';

/** Runs the controller until `signal` aborts; resolves once both informers have synced and the worker stopped. */
export async function runTokensController(cfg: TokensControllerConfig, signal: AbortSignal): Promise<void> {
  const queue = new WorkQueue();
  cfg.secrets.addHandler((_type, secret) => {
    if (isTokenSecret(secret)) queue.add(SECRET_KEY + keyOf(secret));
  });
  cfg.serviceAccounts.addHandler((type, sa) => {
    if (type === 'DELETED') queue.add(`${ACCOUNT_KEY}${keyOf(sa)}/${meta(sa).uid as string}`);
    else for (const s of cfg.secrets.listNamespace(meta(sa).namespace as string)) if (isTokenSecret(s) && belongsTo(s, meta(sa).name as string, meta(sa).uid as string)) queue.add(SECRET_KEY + keyOf(s));
  });
  await Promise.all([cfg.secrets.waitForSync(), cfg.serviceAccounts.waitForSync()]);
  for (const s of cfg.secrets.list()) if (isTokenSecret(s)) queue.add(SECRET_KEY + keyOf(s));
  await queue.run(signal, (key) => (key.startsWith(SECRET_KEY) ? syncSecret(cfg, key.slice(SECRET_KEY.length)) : syncDeletedAccount(cfg, key.slice(ACCOUNT_KEY.length))), (err) => cfg.onError(err));
}

/** The account `namespace/name` if it exists with `uid` (any uid when ''), from the informer, else read live. */
async function serviceAccountOf(cfg: TokensControllerConfig, namespace: string, name: string, uid: string): Promise<Obj | undefined> {
  let sa: Obj | undefined = cfg.serviceAccounts.get(`${namespace}/${name}`);
  if (!sa) {
    try {
      sa = await cfg.serviceAccountStore.get(cfg.ctx, namespace, name);
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
      return undefined;
    }
  }
  return uid === '' || meta(sa).uid === uid ? sa : undefined;
}

/** Deletes Secret `secret` unless it is gone or another Secret holds its name now. */
async function deleteSecret(cfg: TokensControllerConfig, secret: Obj): Promise<void> {
  const m = meta(secret);
  try {
    await cfg.secretStore.delete(cfg.ctx, m.namespace as string, m.name as string, { preconditions: { uid: m.uid as string } });
  } catch (err) {
    if (!isReason(err, 'NotFound') && !isReason(err, 'Conflict')) throw err;
  }
}

/** Fills in Secret `key` (`<ns>/<name>`) for its account, or deletes it when the account does not exist. */
async function syncSecret(cfg: TokensControllerConfig, key: string): Promise<void> {
  const cached = cfg.secrets.get(key);
  if (!cached || !isTokenSecret(cached) || meta(cached).deletionTimestamp) return;
  const namespace = meta(cached).namespace as string;
  const a = annotations(cached);
  const sa = await serviceAccountOf(cfg, namespace, a[SERVICE_ACCOUNT_NAME_ANNOTATION] ?? '', a[SERVICE_ACCOUNT_UID_ANNOTATION] ?? '');
  if (!sa) return deleteSecret(cfg, cached);
  if (!needsUpdate(cfg, cached)) return;
  const name = meta(cached).name as string;
  const token = await cfg.sign(sa, name);
  await updateObject(cfg.ctx, cfg.secretStore, namespace, name, (live) => {
    // Another Secret under the name, or one no longer of this account: its own events will come.
    if (meta(live).uid !== meta(cached).uid || !isTokenSecret(live) || !belongsTo(live, meta(sa).name as string, meta(sa).uid as string)) return;
    fill(cfg, live, sa, token);
  });
}

/** Whether `secret` lacks its token or namespace, or holds another CA bundle than the controller's. */
function needsUpdate(cfg: TokensControllerConfig, secret: Obj): boolean {
  const data = (secret.data ?? {}) as Record<string, string>;
  const ca = cfg.rootCAPem === undefined ? undefined : Buffer.from(cfg.rootCAPem).toString('base64');
  return !data[SERVICE_ACCOUNT_TOKEN_KEY.token] || !data[SERVICE_ACCOUNT_TOKEN_KEY.namespace] || (ca !== undefined && data[SERVICE_ACCOUNT_TOKEN_KEY.rootCA] !== ca);
}

/** Sets what is missing of `secret`'s data (base64, as stored) and the account's name and uid annotations. */
function fill(cfg: TokensControllerConfig, secret: Obj, sa: Obj, token: string): void {
  const data = (secret.data ??= {}) as Record<string, string>;
  if (cfg.rootCAPem !== undefined) data[SERVICE_ACCOUNT_TOKEN_KEY.rootCA] = Buffer.from(cfg.rootCAPem).toString('base64');
  if (!data[SERVICE_ACCOUNT_TOKEN_KEY.namespace]) data[SERVICE_ACCOUNT_TOKEN_KEY.namespace] = Buffer.from(meta(secret).namespace as string).toString('base64');
  if (!data[SERVICE_ACCOUNT_TOKEN_KEY.token]) data[SERVICE_ACCOUNT_TOKEN_KEY.token] = Buffer.from(token).toString('base64');
  const m = meta(secret);
  m.annotations = { ...annotations(secret), [SERVICE_ACCOUNT_NAME_ANNOTATION]: meta(sa).name as string, [SERVICE_ACCOUNT_UID_ANNOTATION]: meta(sa).uid as string };
}

/** Deletes the token Secrets of deleted account `key` (`<ns>/<name>/<uid>`) unless an account of that uid exists again. */
async function syncDeletedAccount(cfg: TokensControllerConfig, key: string): Promise<void> {
  const [namespace, name, uid] = key.split('/') as [string, string, string];
  if (await serviceAccountOf(cfg, namespace, name, uid)) return;
  for (const s of cfg.secrets.listNamespace(namespace)) if (isTokenSecret(s) && belongsTo(s, name, uid)) await deleteSecret(cfg, s);
}
