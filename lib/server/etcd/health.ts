/** etcd's HTTP health endpoint (`GET /health` → `{"health":"true"}`). */

import http from 'node:http';

/**
 * Whether the etcd at `endpoint` (an `http://host:port` client URL) answers `GET /health` with
 * `{"health":"true"}` within `timeoutMs` milliseconds. Never throws.
 */
export function isEtcdHealthy(endpoint: string, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL('/health', endpoint);
    } catch {
      resolve(false);
      return;
    }
    if (url.protocol !== 'http:') {
      resolve(false);
      return;
    }
    const request = http.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        try {
          resolve(response.statusCode === 200 && (JSON.parse(body) as { health?: unknown }).health === 'true');
        } catch {
          resolve(false);
        }
      });
      response.on('error', () => resolve(false));
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}
