/**
 * The PKI of an authenticating proxy for tests (spec 001 § Authenticating proxy flags): a CA of
 * its own (the `--requestheader-client-ca-file`, separate from the client CA) and client
 * certificates it signed, plus requests with repeated header lines made with any of them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { createCaCertificate, createSignedCertificate } from '../../lib/server/pki/certificates.js';
import { generateRsaKey } from '../../lib/server/pki/keys.js';

/** A client certificate and its key. */
export interface ClientIdentity {
  cert: string;
  key: string;
}

/** The proxy CA (as PEM and as a file) and certificates it signed, by common name. */
export interface ProxyPKI {
  caPem: string;
  caFile: string;
  identities: Record<string, ClientIdentity>;
  remove(): Promise<void>;
}

/** Generates a proxy CA and one client certificate per common name in `names`. */
export async function createProxyPKI(names: readonly string[]): Promise<ProxyPKI> {
  const [caKey, ...keys] = await Promise.all([generateRsaKey(), ...names.map(() => generateRsaKey())]);
  const caPem = createCaCertificate(caKey!, 'front-proxy-ca', 1);
  const identities: Record<string, ClientIdentity> = {};
  names.forEach((name, i) => {
    const key = keys[i]!;
    identities[name] = { cert: createSignedCertificate({ certPem: caPem, key: caKey! }, { key, commonName: name, usage: 'client', validDays: 1 }), key: key.privateKeyPem };
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orch-proxy-pki-'));
  const caFile = path.join(dir, 'front-proxy-ca.crt');
  await writeFile(caFile, caPem);
  return { caPem, caFile, identities, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A response read whole. */
export interface ProxyResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * Sends `method url` with `headers` (an array value is sent as repeated header lines, names
 * exactly as given) and an optional JSON body, presenting `identity` when given.
 */
export function proxiedRequest(
  method: string,
  url: string,
  opts: { ca: string; identity?: ClientIdentity; headers?: OutgoingHttpHeaders; body?: unknown },
): Promise<ProxyResponse> {
  const u = new URL(url);
  const payload = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
  const headers: OutgoingHttpHeaders = { ...opts.headers, ...(payload && { 'Content-Type': 'application/json', 'Content-Length': payload.length }) };
  return new Promise((resolve, reject) => {
    const req = request(
      { method, hostname: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, ca: opts.ca, cert: opts.identity?.cert, key: opts.identity?.key, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
