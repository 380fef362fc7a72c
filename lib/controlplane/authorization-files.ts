/**
 * The file-backed parts of the authorizer chain (spec 001 § Authorization, § Webhook
 * authorization mode, § ABAC mode): the modes `AlwaysAllow`, `AlwaysDeny`, `ABAC`
 * (`--authorization-policy-file`) and `Webhook` (`--authorization-webhook-*`), and the chain of
 * `--authorization-config` with its automatic reload. lib/controlplane/authorization.ts calls
 * these from its `buildMode` and `buildAuthorization`.
 */
import { readFile } from 'node:fs/promises';
import { SERVER_NAME } from '../apis/vendor.js';
import { ABACAuthorizer } from '../authorization/abac/authorizer.js';
import { AlwaysAllowAuthorizer, AlwaysDenyAuthorizer } from '../authorization/always/authorizer.js';
import { loadAuthorizationConfiguration } from '../authorization/config/configuration.js';
import { type BuiltAuthorizer, ReloadableAuthorizer } from '../authorization/config/reloadable.js';
import { WebhookAuthorizer } from '../authorization/webhook/authorizer.js';
import type { SubjectAccessReviewVersion } from '../authorization/webhook/subject-access-review.js';
import type { Logger } from '../server/logging.js';
import type { ServerMetrics } from '../server/metrics.js';
import type { AuthorizationOptions } from '../server/options/authorization-options.js';

/** The modes read from files, loaded before the chain is assembled. */
export interface FileModes {
  abac?: ABACAuthorizer;
  webhook?: WebhookAuthorizer;
}

/**
 * Loads what the configured modes need from files: the ABAC policies when ABAC is a mode (of
 * `--authorization-mode`, or a type of `types` from the configuration file), the webhook of
 * `--authorization-webhook-config-file` when Webhook is a mode of the flags.
 * @throws Error when a file cannot be read or parsed (a start-up error).
 */
export async function loadFileModes(opts: AuthorizationOptions, types: readonly string[], log: Logger): Promise<FileModes> {
  const out: FileModes = {};
  if (types.includes('ABAC')) {
    if (!opts.policyFile) throw new Error("ABAC's authorization policy file not passed");
    out.abac = await ABACAuthorizer.fromFile(opts.policyFile);
  }
  if (!opts.config && types.includes('Webhook')) {
    out.webhook = await WebhookAuthorizer.fromKubeconfig(opts.webhookConfigFile, {
      version: opts.webhookVersion as SubjectAccessReviewVersion,
      authorizedTTLMs: opts.webhookCacheAuthorizedTTLMs,
      unauthorizedTTLMs: opts.webhookCacheUnauthorizedTTLMs,
      failurePolicy: 'NoOpinion',
      userAgent: SERVER_NAME,
      onError: (err) => log.error({ err }, 'Failed to make webhook authorizer request'),
    });
  }
  return out;
}

/** The modes that need no informer: AlwaysAllow, AlwaysDeny, and the file modes once loaded; undefined for others. */
export function buildFileMode(mode: string, files: FileModes): BuiltAuthorizer | undefined {
  switch (mode) {
    case 'AlwaysAllow': {
      const a = new AlwaysAllowAuthorizer();
      return { authorizer: a, ruleResolver: a };
    }
    case 'AlwaysDeny': {
      const a = new AlwaysDenyAuthorizer();
      return { authorizer: a, ruleResolver: a };
    }
    case 'ABAC':
      return files.abac && { authorizer: files.abac, ruleResolver: files.abac };
    case 'Webhook':
      return files.webhook && { authorizer: files.webhook, ruleResolver: files.webhook };
    default:
      return undefined;
  }
}

/** The first configuration of `--authorization-config`, loaded and validated. */
export interface InitialAuthorizationConfig {
  data: string;
  loaded: Awaited<ReturnType<typeof loadAuthorizationConfiguration>>;
  /** The authorizer types in order. */
  types: string[];
}

/**
 * Reads and validates `--authorization-config`.
 * @throws Error with upstream's message when the file cannot be read, decoded or validated.
 */
export async function readAuthorizationConfig(file: string): Promise<InitialAuthorizationConfig> {
  const data = await readFile(file, 'utf8');
  const loaded = await loadAuthorizationConfiguration(data);
  return { data, loaded, types: loaded.config.authorizers.map((a) => a.type) };
}

/** Options of {@link startConfiguredChain}. */
export interface ConfiguredChainDeps {
  log: Logger;
  metrics?: ServerMetrics;
  /** This server's identity hash, the reload metrics' `apiserver_id_hash` (lib/server/identity.ts). */
  apiServerIDHash?: string;
  /** Interval of re-reading the file besides watching it, in milliseconds (default 60 s). */
  pollIntervalMs?: number;
}

/**
 * The chain of `--authorization-config`, watching its file: `nonWebhook` holds the other types'
 * authorizers, built once.
 * @throws Error when a webhook's kubeconfig cannot be loaded.
 */
export async function startConfiguredChain(
  file: string,
  initial: InitialAuthorizationConfig,
  nonWebhook: ReadonlyMap<string, BuiltAuthorizer>,
  deps: ConfiguredChainDeps,
): Promise<ReloadableAuthorizer> {
  const chain = await ReloadableAuthorizer.create({
    path: file,
    initialData: initial.data,
    initial: initial.loaded,
    nonWebhook,
    webhookOptions: { userAgent: SERVER_NAME },
    log: deps.log,
    onReload: (status) => deps.metrics?.authorizationConfigReload(status, deps.apiServerIDHash ?? ''),
    ...(deps.metrics && { recordDecision: deps.metrics.auth.authorizationDecision.bind(deps.metrics.auth) }),
    ...(deps.pollIntervalMs !== undefined && { pollIntervalMs: deps.pollIntervalMs }),
  });
  chain.start();
  return chain;
}
