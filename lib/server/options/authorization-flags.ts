/**
 * The Authorization flags (spec 001 § Authorization): one entry per flag, applied to
 * `draft.authorization` (see authorization-options.ts); `flag-table.ts` lists them in its
 * Authorization section.
 */

import { AUTHORIZATION_MODES, type AuthorizationMode, type AuthorizationOptions } from './authorization-options.js';
import type { FlagSpec } from './flag-table.js';
import { parseStringSlice } from './flag-values.js';

/** Options whose `--authorization-mode` was given once already: later occurrences append (pflag's string slice). */
const modesGiven = new WeakSet<AuthorizationOptions>();

/** Every Authorization flag, in help order. */
export const AUTHORIZATION_FLAGS: readonly FlagSpec[] = [
  {
    name: 'authorization-mode',
    section: 'Authorization',
    valueType: 'strings',
    defaultText: '[Node,RBAC]',
    usage: `Ordered list of plug-ins to do authorization on secure port. Defaults to Node,RBAC. Comma-delimited list of: ${AUTHORIZATION_MODES.join(',')}.`,
    apply: (d, v) => {
      const o = d.authorization;
      const given = parseStringSlice(v) as AuthorizationMode[];
      o.modes = modesGiven.has(o) ? [...o.modes, ...given] : given;
      modesGiven.add(o);
    },
  },
];
