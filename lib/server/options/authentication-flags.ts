/**
 * The Authentication flags (spec 001 § Authentication): one entry per flag, applied to
 * `draft.authentication` (see authentication-options.ts); `flag-table.ts` lists them in its
 * Authentication section.
 */

import type { FlagSpec } from './flag-table.js';
import { optionalPath, parseGoBool } from './flag-values.js';

/** Every Authentication flag, in help order. */
export const AUTHENTICATION_FLAGS: readonly FlagSpec[] = [
  {
    name: 'anonymous-auth',
    section: 'Authentication',
    valueType: '',
    defaultText: 'true',
    usage: 'Enables anonymous requests (user system:anonymous, group system:unauthenticated) to the secure port.',
    apply: (d, v) => (d.authentication.anonymousAuth = parseGoBool(v)),
  },
  {
    name: 'client-ca-file',
    section: 'Authentication',
    valueType: 'string',
    defaultText: '""',
    usage: 'If set, a client certificate signed by one of these authorities authenticates as its CommonName, with its Organizations as groups.',
    apply: (d, v) => (d.clientCaFile = optionalPath(v)),
  },
  {
    name: 'token-auth-file',
    section: 'Authentication',
    valueType: 'string',
    defaultText: '""',
    usage: 'If set, the CSV file (token,user,uid,"group1,group2") of static bearer tokens that authenticate requests.',
    apply: (d, v) => (d.authentication.tokenAuthFile = optionalPath(v)),
  },
];
