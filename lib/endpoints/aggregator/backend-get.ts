/**
 * A GET the aggregation layer makes to an extension API server on its own account (upstream
 * v1.30: the availability controller's discovery check and the discovery aggregation manager),
 * as the user {@link AGGREGATOR_USER} in the group `system:masters`, over the TLS of transport.ts.
 */
import { request } from 'node:https';
import type { Obj } from '../../apis/define.js';
import { AGGREGATOR_USER } from '../../apis/vendor.js';
import { MASTERS_GROUP } from '../../request/user.js';
import { dialAddress, type TransportError, transportErrorMessage } from '../../client/rest-errors.js';
import { type ResolvedEndpoint, endpointURL } from '../../client/service-resolver.js';
import { type ProxyClientCertificate, authProxyHeaders, tlsRequestOptions } from './transport.js';

/** An answer read whole. */
export interface BackendResponse {
  status: number;
  contentType: string;
  body: string;
}

/** Largest answer read (bytes): a discovery document is far smaller. */
const MAX_BODY = 16 << 20;

/**
 * GETs `path` of the extension server of `apiService` at `target` with `accept`, giving up after
 * `timeoutMs` (upstream's discovery check waits 6 s).
 * @throws Error: a network or TLS failure as Go's HTTP client words it (`Get "<url>": dial tcp
 *   <addr>: connect: connection refused`), `timed out waiting for <url>`, or an oversized body.
 */
export function backendGet(apiService: Obj, target: ResolvedEndpoint, client: ProxyClientCertificate | undefined, path: string, accept: string, timeoutMs: number): Promise<BackendResponse> {
  const url = endpointURL(target, path);
  return new Promise((resolve, reject) => {
    /** The error this GET gave up with (a timeout, an oversized body), reported as it is. */
    let own: Error | undefined;
    const giveUp = (err: Error) => {
      own = err;
      req.destroy(err);
    };
    const req = request(
      { ...tlsRequestOptions(apiService, target, client), method: 'GET', path, headers: { Accept: accept, ...authProxyHeaders({ name: AGGREGATOR_USER, groups: [MASTERS_GROUP] }) } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BODY) giveUp(new Error(`response from ${url} is larger than ${MAX_BODY} bytes`));
          else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => giveUp(new Error(`timed out waiting for ${url}`)));
    req.on('error', (err) => reject(err === own ? err : new Error(`Get ${JSON.stringify(url)}: ${transportErrorMessage(err as TransportError, dialAddress(target.host, target.port))}`)));
    req.end();
  });
}
