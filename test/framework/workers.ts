/**
 * Observing the server workers of `--workers=N` from outside (issue #17 item 4), through Linux
 * `/proc` only: a primary's worker processes, and which process holds the server side of a TCP
 * connection (the worker the primary handed the accepted connection to). No server cooperation.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import type { Socket } from 'node:net';
import { WatchStream } from './client.js';

/** The pids of `parent`'s child processes whose command line contains `marker`. */
export async function childPids(parent: number, marker: string): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      // Field 4 (ppid) follows the parenthesised command name, which may hold spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== parent) continue;
      const cmdline = (await readFile(`/proc/${name}/cmdline`, 'utf8')).replace(/\0/g, ' ');
      if (cmdline.includes(marker)) out.push(Number(name));
    } catch {
      // The process ended while being read.
    }
  }
  return out.sort((a, b) => a - b);
}

/** The socket inodes `pid` holds open. */
async function socketInodes(pid: number): Promise<Set<string>> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [] as string[])) {
    const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const m = /^socket:\[(\d+)\]$/.exec(link);
    if (m) inodes.add(m[1]!);
  }
  return inodes;
}

/** The inode of the TCP socket whose local port is `localPort` and remote port `remotePort` (/proc/net/tcp and tcp6). */
async function tcpInode(localPort: number, remotePort: number): Promise<string | undefined> {
  const hex = (p: number) => p.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      if (f[1]!.endsWith(`:${hex(localPort)}`) && f[2]!.endsWith(`:${hex(remotePort)}`)) return f[9];
    }
  }
  return undefined;
}

/**
 * Which of `pids` holds the server end of the connection from client port `clientPort` to server
 * port `serverPort`; undefined when none does (yet).
 */
export async function connectionOwner(pids: readonly number[], serverPort: number, clientPort: number): Promise<number | undefined> {
  const inode = await tcpInode(serverPort, clientPort);
  if (inode === undefined) return undefined;
  for (const pid of pids) if ((await socketInodes(pid)).has(inode)) return pid;
  return undefined;
}

/** TLS identity of a {@link PinnedClient}. */
export interface ClientTLS {
  ca: string;
  cert: string;
  key: string;
}

/** An HTTP/1.1 client that keeps one connection, answered by one worker. */
export interface PinnedClient {
  /** The worker holding the connection. */
  pid: number;
  /** The one keep-alive connection's agent (pass it to requests that must go to this worker). */
  agent: Agent;
  /** A request on the connection; resolves with status and body text. */
  send(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }>;
  /** A watch on the connection (it then carries nothing else). */
  watch(path: string): Promise<WatchStream>;
  close(): void;
}

/** One request on `agent` (resolving with the socket that carried it). */
function send(url: URL, agent: Agent, method: string, path: string, body?: unknown): Promise<{ status: number; text: string; socket: Socket }> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      { method, hostname: url.hostname, port: url.port, path, agent, headers: payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {} },
      (res) => {
        // The agent takes the socket back at the end of the response.
        const socket = res.socket as Socket;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), socket }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Opens connections to `baseURL` until one is held by `pid` (any of `pids` when `pid` is
 * undefined), returning a client bound to it. @throws Error after `attempts` connections.
 */
export async function clientOnWorker(baseURL: string, tls: ClientTLS, pids: readonly number[], pid?: number, attempts = 30): Promise<PinnedClient> {
  const url = new URL(baseURL);
  for (let i = 0; i < attempts; i++) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1, ...tls });
    const first = await send(url, agent, 'GET', '/readyz');
    const owner = await connectionOwner(pids, Number(url.port), first.socket.localPort!);
    if (owner !== undefined && (pid === undefined || owner === pid)) {
      return {
        pid: owner,
        agent,
        send: async (method, path, body) => {
          const r = await send(url, agent, method, path, body);
          return { status: r.status, text: r.text };
        },
        watch: (path) =>
          new Promise((resolve, reject) => {
            const req = request({ method: 'GET', hostname: url.hostname, port: url.port, path, agent }, (res) => resolve(new WatchStream(res.statusCode ?? 0, res.headers, res, () => req.destroy())));
            req.on('error', reject);
            req.end();
          }),
        close: () => agent.destroy(),
      };
    }
    agent.destroy();
  }
  throw new Error(`no connection to ${baseURL} was answered by ${pid ?? pids.join(' or ')} in ${attempts} attempts`);
}
