/**
 * HTTP upgrade requests (WebSocket, SPDY: `Connection: Upgrade`) through the same handler chain
 * as every other request (issue #20; spec 000 § Verb mapping: exec, attach, portforward and the
 * proxies). Node hands an upgrade request to the server's `upgrade` event with the raw socket
 * instead of a response; here it gets a response bound to that socket, so authentication,
 * audit, flow control and authorization run as usual and an error is answered as a Status. A
 * handler that switches protocols takes the socket itself (Koa's `respond` false: the connect
 * handler); once a plain answer is written the connection is closed.
 */
import { type IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** Serves `server`'s upgrade requests with `handler` (the Koa app's callback). */
export function serveUpgrades(server: Server, handler: (req: IncomingMessage, res: ServerResponse) => void): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Bytes the client sent after the request head belong to the new protocol: read them again.
    if (head.length > 0) socket.unshift(head);
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    res.once('finish', () => {
      res.detachSocket(socket as Socket);
      socket.end();
    });
    socket.on('error', () => socket.destroy());
    handler(req, res);
  });
}
