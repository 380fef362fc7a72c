/** Reading protobuf watch streams in tests. */
import { WatchFrameReader } from '../../lib/apimachinery/serializers/protobuf/index.js';
import type { TestClient } from './client.js';

/** Opens a watch at `path` with `accept`, reads its first length-prefixed frame, then closes it. */
export async function firstFrame(client: TestClient, path: string, accept: string): Promise<{ contentType: string | undefined; frame: Buffer }> {
  const w = await client.rawStream(path, { headers: { Accept: accept } });
  const reader = new WatchFrameReader();
  const frames: Buffer[] = [];
  for await (const chunk of w.body) {
    frames.push(...reader.push(chunk as Buffer));
    if (frames.length > 0) break;
  }
  w.close();
  return { contentType: w.headers['content-type'], frame: frames[0]! };
}
