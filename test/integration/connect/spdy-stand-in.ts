/**
 * The kubelet stand-in's SPDY/3.1 (issue #20), as small as kubectl's port-forward and SPDY exec
 * need: the `101 Switching Protocols` answer naming the protocol the client offered first in
 * `X-Stream-Protocol-Version`, then SPDY frames — every SYN_STREAM gets a SYN_REPLY. Port-forward
 * (kubectl opens an error and a data stream per connection): every DATA frame is echoed on its
 * stream and a FIN answered with a FIN. Exec (remote command v4: the error stream, then stdin,
 * stdout, stderr as asked, in that order): once all are open, the output is written on stdout
 * and every stream finished (an empty error stream is success). Header blocks of the client are
 * not read; the replies carry no headers (one zlib stream across the connection, as SPDY/3
 * requires). Flow control windows are not updated: enough for the few bytes a test sends.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { constants, createDeflate } from 'node:zlib';

const SYN_STREAM = 1;
const FLAG_FIN = 0x01;

/** A SPDY/3 control frame of `type` with `flags` and `payload`. */
function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8003, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(((flags & 0xff) << 24) | payload.length, 4);
  return Buffer.concat([head, payload]);
}

/** A SPDY data frame on stream `id`. */
function dataFrame(id: number, flags: number, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(id & 0x7fffffff, 0);
  head.writeUInt32BE(((flags & 0xff) << 24) | data.length, 4);
  return Buffer.concat([head, data]);
}

/** What a SPDY connection does: echo (port-forward), or answer a remote command. */
export type SpdySession = { echo: true } | { exec: { streams: number; stdoutIndex: number; output: string } };

/** Serves one upgraded SPDY connection on `socket` until it closes. */
export function serveSpdy(req: IncomingMessage, socket: Duplex, head: Buffer, session: SpdySession): void {
  const offered = String(req.headers['x-stream-protocol-version'] ?? '').split(',')[0]!.trim();
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: ${offered}\r\n\r\n`);
  const deflate = createDeflate();
  /** The next reply's header block (no headers), continuing the connection's zlib stream. */
  const emptyHeaderBlock = (): Promise<Buffer> =>
    new Promise((resolve) => {
      const chunks: Buffer[] = [];
      const onData = (c: Buffer) => chunks.push(c);
      deflate.on('data', onData);
      deflate.write(Buffer.alloc(4));
      deflate.flush(constants.Z_SYNC_FLUSH, () => {
        deflate.off('data', onData);
        resolve(Buffer.concat(chunks));
      });
    });
  const opened: number[] = [];
  let queue = Promise.resolve();
  let buffered = head;
  const handle = async (frame: Buffer) => {
    const control = (frame[0]! & 0x80) !== 0;
    const flags = frame[4]!;
    if (control) {
      if (frame.readUInt16BE(2) !== SYN_STREAM) return;
      const id = frame.readUInt32BE(8) & 0x7fffffff;
      const id4 = Buffer.alloc(4);
      id4.writeUInt32BE(id);
      socket.write(controlFrame(2, 0, Buffer.concat([id4, await emptyHeaderBlock()])));
      opened.push(id);
      if ('exec' in session) {
        const e = session.exec;
        if (opened.length !== e.streams) return;
        socket.write(dataFrame(opened[e.stdoutIndex]!, 0, Buffer.from(e.output)));
        for (const s of opened) socket.write(dataFrame(s, FLAG_FIN, Buffer.alloc(0)));
        return;
      }
      if (flags & FLAG_FIN) socket.write(dataFrame(id, FLAG_FIN, Buffer.alloc(0)));
      return;
    }
    if ('exec' in session) return;
    const id = frame.readUInt32BE(0) & 0x7fffffff;
    const data = frame.subarray(8);
    if (data.length > 0) socket.write(dataFrame(id, 0, data));
    if (flags & FLAG_FIN) socket.write(dataFrame(id, FLAG_FIN, Buffer.alloc(0)));
  };
  const drain = () => {
    while (buffered.length >= 8) {
      const length = buffered.readUInt32BE(4) & 0xffffff;
      if (buffered.length < 8 + length) return;
      const frame = buffered.subarray(0, 8 + length);
      buffered = buffered.subarray(8 + length);
      queue = queue
        .then(() => handle(frame))
        .catch(() => {
          socket.destroy();
        });
    }
  };
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    drain();
  });
  socket.on('error', () => socket.destroy());
  socket.on('close', () => deflate.destroy());
  drain();
}
