import { expect } from 'chai';
import { chunkOf, chunkedFrame, httpChunk } from '../../../../lib/endpoints/handlers/http-chunk.js';

const text = (b: Buffer) => b.toString('latin1');

describe('endpoints/handlers/http-chunk: HTTP/1.1 chunks of watch frames (RFC 9112 § 7.1)', () => {
  it('makes a frame inside its own chunk and gives that chunk back, sharing its memory', () => {
    const frame = chunkedFrame(300, (buf, at) => buf.fill('x', at, at + 300));
    expect(text(frame)).to.equal('x'.repeat(300));
    const chunk = chunkOf(frame);
    expect(text(chunk)).to.equal(`12c\r\n${'x'.repeat(300)}\r\n`);
    expect(chunk.buffer).to.equal(frame.buffer);
    expect(chunkOf(frame)).to.equal(chunk);
  });

  it('wraps a frame made elsewhere in a new chunk', () => {
    const frame = Buffer.from('{"type":"ADDED"}\n');
    expect(text(chunkOf(frame))).to.equal('11\r\n{"type":"ADDED"}\n\r\n');
  });

  it('joins several frames in one chunk whose size line counts them all', () => {
    const frames = [Buffer.from('a\n'), Buffer.from('bc\n'), Buffer.from('def\n')];
    expect(text(httpChunk(frames, 1, 3, 7))).to.equal('7\r\nbc\ndef\n\r\n');
  });

  it('makes an empty frame a well-formed chunk too', () => {
    expect(text(chunkOf(chunkedFrame(0, () => undefined)))).to.equal('0\r\n\r\n');
  });
});
