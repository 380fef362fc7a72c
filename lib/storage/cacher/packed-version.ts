/**
 * Old versions of objects as a watch cache's event window holds them (issue #24 item 2): the JSON
 * of each, deflated (node:zlib, raw deflate) against a preset dictionary that is the JSON of an
 * earlier old version of the same resource, and parsed again only when a watch or a list of a
 * past revision needs it.
 *
 * The objects of one resource share most of their bytes (field names, the values of one template,
 * the managed-field trees), so against such a dictionary a 2.9 KB Pod deflates to about 130 bytes
 * where a deflate of its own gets 1.1 KB. The bytes are held as a one-byte string (each byte one
 * character): a string carries a few words of header, where a Buffer of its own carries an
 * ArrayBuffer, its backing store and a view, larger than the deflated bytes themselves.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { StoredObject } from '../interface.js';

/** How many versions a packer deflates against one dictionary before it takes the next version's JSON as the new one. */
export const DICTIONARY_REFRESH = 4096;

/** Deflate's window (32 KiB): of a longer dictionary only its last bytes are used, so only they are kept. */
const MAX_DICTIONARY = 32 * 1024;

/** zlib's fastest level: the dictionary does most of the work (level 6 saved 5% more bytes at the same cost per call, which is mostly zlib's set-up). */
const DEFLATE = { level: 1 } as const;

/**
 * One old version: its JSON (UTF-8), deflated against `dictionary` (or as it is, when deflating
 * did not make it smaller), as a one-byte string. One parse serves every reader while any of them
 * still holds the object (a weak reference), so watchers replaying the same events share their
 * objects and frames.
 */
export class PackedVersion {
  private parsed: WeakRef<StoredObject> | undefined;

  /** `bytes`: one character per byte; `dictionary`: what they were deflated against, undefined when they are the JSON itself. */
  constructor(
    private readonly bytes: string,
    private readonly dictionary: Buffer | undefined,
  ) {}

  /** Bytes held (the deflated JSON, or the JSON): the window's memory for this version, beside a few words of header. */
  get size(): number {
    return this.bytes.length;
  }

  /** The object (equal to the one packed; a new instance unless one is still held). */
  object(): StoredObject {
    let obj = this.parsed?.deref();
    if (!obj) {
      const raw = Buffer.from(this.bytes, 'latin1');
      const json = this.dictionary ? inflateRawSync(raw, { dictionary: this.dictionary }) : raw;
      obj = JSON.parse(json.toString('utf8')) as StoredObject;
      this.parsed = new WeakRef(obj);
    }
    return obj;
  }
}

/** A copy of `b` in memory of its own (not a slice of a pool or of zlib's output chunk, which would keep the whole of it). */
function ownCopy(b: Buffer): Buffer {
  const out = Buffer.allocUnsafeSlow(b.length);
  b.copy(out);
  return out;
}

/**
 * The packer of one resource's old versions: holds the dictionary (the JSON of the first version
 * it packs, then of every {@link DICTIONARY_REFRESH}th, so that it follows what the resource's
 * objects look like; the last 32 KiB of it). Versions packed against an older dictionary keep it.
 */
export class VersionPacker {
  private dictionary: Buffer | undefined;
  private count = 0;

  /** Packs `obj` (a plain JSON object). */
  pack(obj: StoredObject): PackedVersion {
    return this.packJSON(Buffer.from(JSON.stringify(obj), 'utf8'));
  }

  /** Packs the version whose JSON (UTF-8, no trailing newline) is `json`; `json` is not kept. */
  packJSON(json: Buffer): PackedVersion {
    if (this.count++ % DICTIONARY_REFRESH === 0) this.dictionary = ownCopy(json.subarray(Math.max(0, json.length - MAX_DICTIONARY)));
    const dictionary = this.dictionary!;
    const deflated = deflateRawSync(json, { ...DEFLATE, dictionary });
    return deflated.length < json.length ? new PackedVersion(deflated.toString('latin1'), dictionary) : new PackedVersion(json.toString('latin1'), undefined);
  }
}
