/**
 * A tiny TCP load balancer for `make run-ha` (issue #16 § Helm chart, local HA recipe): listens on
 * a loopback port and hands each connection to the next healthy backend, round robin. TLS passes
 * through untouched (the replicas share one serving certificate, valid for 127.0.0.1). A backend
 * is healthy while a TCP connect to it succeeds; health is checked every second.
 *
 * Usage: tsx hack/tcp-lb.ts <listen-port> <backend-port>...   (all on 127.0.0.1)
 */
import net from 'node:net';

const HOST = '127.0.0.1';
const CHECK_INTERVAL_MS = 1_000;
const CONNECT_TIMEOUT_MS = 500;

const [listenPort, ...backendPorts] = process.argv.slice(2).map(Number);
if (!listenPort || backendPorts.length === 0 || backendPorts.some((p) => !Number.isInteger(p) || p <= 0)) {
  process.stderr.write('usage: tcp-lb.ts <listen-port> <backend-port>...\n');
  process.exit(2);
}
const healthy = new Map<number, boolean>(backendPorts.map((p) => [p, false]));
let next = 0;

/** Resolves true when a TCP connection to the port opens within the timeout. */
function probe(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: HOST, port, timeout: CONNECT_TIMEOUT_MS });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

async function checkAll(): Promise<void> {
  for (const port of backendPorts) {
    const ok = await probe(port);
    if (ok !== healthy.get(port)) process.stderr.write(`tcp-lb: backend ${HOST}:${port} ${ok ? 'healthy' : 'down'}\n`);
    healthy.set(port, ok);
  }
}

/** The next healthy backend in round-robin order, or undefined when none is. */
function pick(): number | undefined {
  for (let i = 0; i < backendPorts.length; i++) {
    const port = backendPorts[(next + i) % backendPorts.length]!;
    if (healthy.get(port)) {
      next = (next + i + 1) % backendPorts.length;
      return port;
    }
  }
  return undefined;
}

const server = net.createServer((client) => {
  const port = pick();
  if (port === undefined) {
    client.destroy();
    return;
  }
  const upstream = net.connect({ host: HOST, port });
  client.pipe(upstream).pipe(client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.once('error', close);
  upstream.once('error', () => {
    healthy.set(port, false);
    close();
  });
  client.once('close', close);
  upstream.once('close', close);
});

await checkAll();
setInterval(() => void checkAll(), CHECK_INTERVAL_MS);
server.listen(listenPort, HOST, () => process.stderr.write(`tcp-lb: listening on ${HOST}:${listenPort}, backends ${backendPorts.join(', ')}\n`));
