/**
 * The identity of one API server (issue #16 item 1): made once per server instance (one per
 * process in production; tests running several servers in one process get one each), it names
 * the server's identity Lease, labels the reload metrics (`apiserver_id_hash`) and, with the
 * hostname, identifies the server in leader election. Upstream derives its ID from the hostname
 * alone (generic apiserver config, APIServerIdentity); ours also hashes a per-instance UUID, so
 * that replicas sharing a host (or a process) stay distinct.
 */
import { createHash, randomUUID } from 'node:crypto';
import os from 'node:os';
import { API_SERVER_IDENTITY_LEASE_PREFIX } from '../apis/vendor.js';

/** One server's identity. */
export interface ServerIdentity {
  /** `orch-apiserver-<26 lowercase base32 characters>`: the identity Lease's name and holder. */
  id: string;
  /** `sha256:<64 hex digits>` of {@link id} (upstream's `apiserver_id_hash` label value). */
  idHash: string;
  /** The host's name (the identity Lease's hostname label). */
  hostname: string;
  /** `<hostname>_<uuid>`: this server's leader-election identity (upstream controller-manager's form). */
  electionID: string;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32 without padding, lowercase (upstream lowercases Go's StdEncoding). */
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/**
 * A fresh identity: the ID is the prefix and the base32 of the first 16 bytes of
 * sha256(hostname, uuid) (upstream hashes the hostname and the component name).
 */
export function newServerIdentity(hostname = os.hostname(), uuid = randomUUID()): ServerIdentity {
  const digest = createHash('sha256').update(`${hostname}\0${uuid}`).digest();
  const id = `${API_SERVER_IDENTITY_LEASE_PREFIX}${base32(digest.subarray(0, 16))}`;
  return {
    id,
    idHash: `sha256:${createHash('sha256').update(id).digest('hex')}`,
    hostname,
    electionID: `${hostname}_${uuid}`,
  };
}
