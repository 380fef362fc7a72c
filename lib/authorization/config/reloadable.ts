/**
 * The authorizer chain of `--authorization-config` (spec 001 § Authorization, § Limits): the
 * file's authorizers in order, rebuilt when the file changes and at least every 60 s. Non-Webhook
 * authorizers (Node, RBAC…) are built once by the caller and kept across reloads, as upstream
 * keeps them; webhooks are rebuilt from each new file. A new file that does not load, validate
 * (every non-Webhook type of the first file must stay) or build is logged and reported as a
 * failed reload, and the chain in effect stays. Each outcome that got past an unchanged file is
 * reported as `success` or `failure`.
 */
import { ConfigFileWatcher } from '../../client/config-file-watcher.js';
import type { RetryBackoff } from '../../client/webhook.js';
import type { UserInfo } from '../../request/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, RuleResolver, RulesResult } from '../interface.js';
import { type AuthorizationDecisionRecorder, instrumentedAuthorizer } from '../instrumented.js';
import { UnionAuthorizer, UnionRuleResolver } from '../union.js';
import { type FailurePolicy, WebhookAuthorizer } from '../webhook/authorizer.js';
import type { SubjectAccessReviewVersion } from '../webhook/subject-access-review.js';
import { type LoadedAuthorizationConfiguration, loadAuthorizationConfiguration } from './configuration.js';

/** An authorizer with its rule resolver (SelfSubjectRulesReview). */
export interface BuiltAuthorizer {
  authorizer: Authorizer;
  ruleResolver: RuleResolver;
}

/** The logger reloads report to (a pino logger fits). */
export interface ReloadLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Options of the webhooks a configuration builds. */
export interface ConfigWebhookOptions {
  userAgent?: string;
  retryBackoff?: RetryBackoff;
}

/** What {@link ReloadableAuthorizer.create} needs. */
export interface ReloadableAuthorizerOptions {
  /** The configuration file. */
  path: string;
  /** The file content `initial` was loaded from. */
  initialData: string;
  /** The loaded first configuration. */
  initial: LoadedAuthorizationConfiguration;
  /** The non-Webhook authorizers by type, built once (the first file's types). */
  nonWebhook: ReadonlyMap<string, BuiltAuthorizer>;
  webhookOptions?: ConfigWebhookOptions;
  log: ReloadLog;
  /** Called once per reload attempt that got past an unchanged file (metrics). */
  onReload?: (status: 'success' | 'failure') => void;
  /** Told every Allow and Deny of each authorizer of the chain, with its type and name (metrics). */
  recordDecision?: AuthorizationDecisionRecorder;
  /** Interval of re-reading the file besides watching it, in milliseconds (default 60 s). */
  pollIntervalMs?: number;
}

/** One built chain. */
interface Chain {
  authorizer: Authorizer;
  resolver: UnionRuleResolver;
  webhooks: WebhookAuthorizer[];
  /** The authorizer types, in order. */
  types: string[];
  /** The decoded configuration, to skip reloads that change nothing. */
  key: string;
}

/** The chain of the configuration file, swapped atomically on reload. */
export class ReloadableAuthorizer implements Authorizer, RuleResolver {
  private current: Chain;
  private readonly watcher: ConfigFileWatcher;
  private readonly requireTypes: ReadonlySet<string>;

  private constructor(
    private readonly o: ReloadableAuthorizerOptions,
    first: Chain,
  ) {
    this.current = first;
    this.requireTypes = new Set(o.nonWebhook.keys());
    this.watcher = new ConfigFileWatcher({
      path: o.path,
      initialData: o.initialData,
      pollIntervalMs: o.pollIntervalMs,
      onContent: (data) => this.reload(data),
      onReadError: (err) => {
        o.log.error({ err }, 'reloading authorization config');
        o.onReload?.('failure');
      },
      onWatchError: (err) => o.log.error({ err }, 'watching authorization config file'),
    });
  }

  /**
   * Builds the first chain.
   * @throws Error when a webhook's kubeconfig cannot be loaded (a start-up error).
   */
  static async create(o: ReloadableAuthorizerOptions): Promise<ReloadableAuthorizer> {
    return new ReloadableAuthorizer(o, await buildChain(o.initial, o));
  }

  /** The authorizer types of the configuration in effect, in order (what anonymous-auth defaults look at). */
  get types(): string[] {
    return [...this.current.types];
  }

  async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
    return this.current.authorizer.authorize(a);
  }

  async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    return this.current.resolver.rulesFor(user, namespace);
  }

  /** Starts watching and polling the file; reports the start as a successful load (as upstream's runReload does). */
  start(): void {
    this.o.onReload?.('success');
    this.watcher.start();
  }

  /** Stops watching and closes the webhooks' connections. */
  stop(): void {
    this.watcher.stop();
    for (const w of this.current.webhooks) w.close();
  }

  /** Reads the file once and reloads when it changed. Resolves when done. */
  check(): Promise<void> {
    return this.watcher.check();
  }

  private async reload(data: string): Promise<boolean> {
    const { log } = this.o;
    log.info({ path: this.o.path }, 'found new authorization config');
    let next: Chain;
    try {
      const loaded = await loadAuthorizationConfiguration(data, this.requireTypes);
      if (JSON.stringify(loaded.config) === this.current.key) return true;
      next = await buildChain(loaded, this.o);
    } catch (err) {
      log.error({ err }, 'reloading authorization config');
      this.o.onReload?.('failure');
      return true;
    }
    if (this.watcher.isStopped) {
      for (const w of next.webhooks) w.close();
      return true;
    }
    const old = this.current;
    this.current = next;
    for (const w of old.webhooks) w.close();
    log.info({ path: this.o.path }, 'reloaded authz config');
    this.o.onReload?.('success');
    return true;
  }
}

/** Builds the chain of `loaded`: webhooks new, the other types from `o.nonWebhook`. */
async function buildChain(loaded: LoadedAuthorizationConfiguration, o: ReloadableAuthorizerOptions): Promise<Chain> {
  const authorizers: Authorizer[] = [];
  const resolvers: RuleResolver[] = [];
  const webhooks: WebhookAuthorizer[] = [];
  try {
    for (const [i, a] of loaded.config.authorizers.entries()) {
      if (a.type !== 'Webhook') {
        const built = o.nonWebhook.get(a.type);
        if (!built) throw new Error(`authorizer type ${a.type} was not in the configuration the server started with`);
        authorizers.push(o.recordDecision ? instrumentedAuthorizer(a.type, a.name, built.authorizer, o.recordDecision) : built.authorizer);
        resolvers.push(built.ruleResolver);
        continue;
      }
      const w = a.webhook!;
      const matchConditions = loaded.matchConditions.get(i);
      const webhook = await WebhookAuthorizer.fromKubeconfig(w.connectionInfo.kubeConfigFile!, {
        version: w.subjectAccessReviewVersion as SubjectAccessReviewVersion,
        authorizedTTLMs: w.authorizedTTLMs,
        unauthorizedTTLMs: w.unauthorizedTTLMs,
        timeoutMs: w.timeoutMs,
        failurePolicy: w.failurePolicy as FailurePolicy,
        ...(matchConditions && { matchConditions }),
        ...o.webhookOptions,
        onError: (err) => o.log.error({ err, authorizer: a.name }, 'authorization webhook failed'),
      });
      webhooks.push(webhook);
      authorizers.push(o.recordDecision ? instrumentedAuthorizer(a.type, a.name, webhook, o.recordDecision) : webhook);
      resolvers.push(webhook);
    }
  } catch (err) {
    for (const w of webhooks) w.close();
    throw err;
  }
  return {
    authorizer: new UnionAuthorizer(authorizers),
    resolver: new UnionRuleResolver(resolvers),
    webhooks,
    types: loaded.config.authorizers.map((a) => a.type),
    key: JSON.stringify(loaded.config),
  };
}
