/** Picking free TCP ports on the loopback interface. */

import net from 'node:net';

/**
 * A TCP port free on 127.0.0.1 at the time of the call (the kernel's pick for port 0). Another
 * process may take it before the caller binds it: callers retry on "address already in use".
 */
export async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `count` distinct free loopback ports. */
export async function freeLoopbackPorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freeLoopbackPort());
  return [...ports];
}
