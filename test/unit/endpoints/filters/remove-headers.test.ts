import { expect } from 'chai';
import { type IncomingMessage, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { removeRequestHeaders } from '../../../../lib/endpoints/filters/remove-headers.js';

/** The three views of a request's headers after `edit` ran on it in a real server. */
interface Views {
  headers: Record<string, unknown>;
  rawHeaders: string[];
  distinct: Record<string, unknown>;
}

/** Sends GET / with `headers` to a server that runs `edit` on the request and reports its views. */
async function viewsAfter(headers: Record<string, string | string[]>, edit: (req: IncomingMessage) => void): Promise<Views> {
  let views: Views | undefined;
  const server = createServer((req, res) => {
    edit(req);
    views = { headers: { ...req.headers }, rawHeaders: [...req.rawHeaders], distinct: { ...req.headersDistinct } };
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/', headers }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end();
    });
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
  return views!;
}

const SENT = { Authorization: 'Bearer t', 'X-Remote-Group': ['a', 'b'], 'X-Kept': ['1', '2'], Accept: 'application/json' };
const isCredential = (n: string) => n === 'authorization' || n === 'x-remote-group';

describe('endpoints/filters: removeRequestHeaders', () => {
  for (const [when, readFirst] of [['headersDistinct not read before', false], ['headersDistinct read before', true]] as const) {
    it(`removes the matching headers from headers, rawHeaders and headersDistinct (${when})`, async () => {
      const v = await viewsAfter(SENT, (req) => {
        if (readFirst) expect(req.headersDistinct['x-remote-group']).to.deep.equal(['a', 'b']);
        removeRequestHeaders(req, isCredential);
      });
      expect(v.headers).to.include({ 'x-kept': '1, 2', accept: 'application/json' });
      expect(v.headers).to.not.have.any.keys('authorization', 'x-remote-group');
      expect(v.rawHeaders.filter((_h, i) => i % 2 === 0).map((h) => h.toLowerCase())).to.include.members(['x-kept', 'accept']).and.not.include.members(['authorization', 'x-remote-group']);
      expect(v.rawHeaders.filter((h) => h === 'X-Kept')).to.have.length(2);
      expect(v.distinct).to.include.keys('x-kept', 'accept', 'host');
      expect(v.distinct).to.not.have.any.keys('authorization', 'x-remote-group');
      expect(v.distinct['x-kept']).to.deep.equal(['1', '2']);
    });
  }

  it('removes again after a first removal (authentication, then impersonation)', async () => {
    const v = await viewsAfter(SENT, (req) => {
      removeRequestHeaders(req, (n) => n === 'authorization');
      expect(req.headersDistinct['x-remote-group']).to.deep.equal(['a', 'b']);
      removeRequestHeaders(req, (n) => n === 'x-remote-group');
    });
    expect(v.headers).to.not.have.any.keys('authorization', 'x-remote-group');
    expect(v.distinct).to.not.have.any.keys('authorization', 'x-remote-group');
    expect(v.distinct['x-kept']).to.deep.equal(['1', '2']);
  });
});
