/**
 * The Authorization flags (spec 001 § Authorization): one entry per flag, applied to
 * `draft.authorization` (see authorization-options.ts); `flag-table.ts` lists them in its
 * Authorization section.
 */

import { vendorGroup } from '../../apis/vendor.js';
import { formatDuration, parseDuration } from '../../apimachinery/duration.js';
import { AUTHORIZATION_MODES, type AuthorizationMode, type AuthorizationOptions, defaultAuthorizationOptions } from './authorization-options.js';
import type { FlagSpec } from './flag-table.js';
import { parseStringSlice } from './flag-values.js';

const DEFAULTS = defaultAuthorizationOptions();

/** Options whose `--authorization-mode` was given once already: later occurrences append (pflag's string slice). */
const modesGiven = new WeakSet<AuthorizationOptions>();

/** Every Authorization flag, in help order. */
export const AUTHORIZATION_FLAGS: readonly FlagSpec[] = [
  {
    name: 'authorization-mode',
    section: 'Authorization',
    valueType: 'strings',
    defaultText: '[Node,RBAC]',
    usage: `Ordered list of plug-ins to do authorization on secure port. Defaults to Node,RBAC if --authorization-config is not used. Comma-delimited list of: ${AUTHORIZATION_MODES.join(',')}.`,
    apply: (d, v) => {
      const o = d.authorization;
      const given = parseStringSlice(v) as AuthorizationMode[];
      o.modes = modesGiven.has(o) ? [...o.modes, ...given] : given;
      modesGiven.add(o);
      o.legacyFlagsGiven = true;
    },
  },
  {
    name: 'authorization-policy-file',
    section: 'Authorization',
    valueType: 'string',
    defaultText: '""',
    usage: 'File with authorization policy in json line by line format, used with --authorization-mode=ABAC, on the secure port.',
    apply: (d, v) => (d.authorization.policyFile = v),
  },
  {
    name: 'authorization-webhook-config-file',
    section: 'Authorization',
    valueType: 'string',
    defaultText: '""',
    usage:
      "File with webhook configuration in kubeconfig format, used with --authorization-mode=Webhook. The API server will query the remote service to determine access on the API server's secure port.",
    apply: (d, v) => {
      d.authorization.webhookConfigFile = v;
      d.authorization.legacyFlagsGiven = true;
    },
  },
  {
    name: 'authorization-webhook-version',
    section: 'Authorization',
    valueType: 'string',
    defaultText: JSON.stringify(DEFAULTS.webhookVersion),
    usage: `The API version of the ${vendorGroup('authorization')} SubjectAccessReview to send to and expect from the webhook.`,
    apply: (d, v) => {
      d.authorization.webhookVersion = v;
      d.authorization.legacyFlagsGiven = true;
    },
  },
  {
    name: 'authorization-webhook-cache-authorized-ttl',
    section: 'Authorization',
    valueType: 'duration',
    defaultText: formatDuration(DEFAULTS.webhookCacheAuthorizedTTLMs),
    usage: "The duration to cache 'authorized' responses from the webhook authorizer.",
    apply: (d, v) => {
      d.authorization.webhookCacheAuthorizedTTLMs = parseDuration(v);
      d.authorization.legacyFlagsGiven = true;
    },
  },
  {
    name: 'authorization-webhook-cache-unauthorized-ttl',
    section: 'Authorization',
    valueType: 'duration',
    defaultText: formatDuration(DEFAULTS.webhookCacheUnauthorizedTTLMs),
    usage: "The duration to cache 'unauthorized' responses from the webhook authorizer.",
    apply: (d, v) => {
      d.authorization.webhookCacheUnauthorizedTTLMs = parseDuration(v);
      d.authorization.legacyFlagsGiven = true;
    },
  },
  {
    name: 'authorization-config',
    section: 'Authorization',
    valueType: 'string',
    defaultText: '""',
    usage:
      'File with Authorization Configuration to configure the authorizer chain. This flag is mutually exclusive with the other --authorization-mode and --authorization-webhook-* flags.',
    apply: (d, v) => (d.authorization.config = v),
  },
];
