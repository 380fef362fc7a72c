/**
 * Old versions of objects as a watch cache's event window holds them (issue #24 item 2): the JSON
 * of each, deflated (node:zlib, raw deflate) in batches against a preset dictionary that is the
 * JSON of an earlier old version of the same resource, and parsed again only when a watch or a
 * list of a past revision needs it.
 *
 * The objects of one resource share most of their bytes (field names, the values of one template,
 * the managed-field trees), so against such a dictionary a 2.9 KB Pod deflates to about a tenth
 * of a kilobyte. One zlib call costs about 20 µs before it compresses a byte (a stream object
 * and zlib's state made and freed), which inside the server came to 4–8% of a worker's CPU at
 * one call per version: so {@link BATCH_VERSIONS} versions are deflated in one call, and a
 * version is read back by inflating its batch (kept while a reader holds it). The deflated bytes
 * are held as a one-byte string (each byte one character): a string carries a few words of
 * header, where a Buffer of its own carries an ArrayBuffer, its backing store and a view.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ownUTF8 } from '../../apimachinery/serializers/json-cache.js';
import type { StoredObject } from '../interface.js';

/** How many versions a packer deflates against one dictionary before it takes the next version's JSON as the new one. */
export const DICTIONARY_REFRESH = 4096;

/** Versions deflated in one zlib call; until its batch is full a version is held as its JSON. */
export const BATCH_VERSIONS = 32;
/**
 * A batch is full at these many bytes of JSON too: the open batch of a resource changed seldom
 * outlives the window's events that hold its versions, so what it keeps is bounded by size.
 */
export const BATCH_BYTES = 256 * 1024;

/** Deflate's window (32 KiB): of a longer dictionary only its last bytes are used, so only they are kept. */
const MAX_DICTIONARY = 32 * 1024;

/** zlib's fastest level: the dictionary does most of the work. */
const LEVEL = 1;

/** The deflated JSON of several versions, one after the other, and what they were deflated against. */
class PackedBatch {
  private inflated: WeakRef<Buffer> | undefined;

  /** `bytes`: the deflated JSON, one character per byte; `jsonLength`: the bytes of JSON it holds. */
  constructor(
    private readonly bytes: string,
    private readonly dictionary: Buffer,
    readonly jsonLength: number,
  ) {}

  /** Bytes of deflated JSON held. */
  get size(): number {
    return this.bytes.length;
  }

  /** The versions' JSON, one after the other (inflated once while a reader holds it). */
  json(): Buffer {
    let b = this.inflated?.deref();
    if (!b) {
      b = inflateRawSync(Buffer.from(this.bytes, 'latin1'), { dictionary: this.dictionary });
      this.inflated = new WeakRef(b);
    }
    return b;
  }
}

/**
 * One old version: its JSON (UTF-8) until its batch is deflated, then its place in the batch.
 * One parse serves every reader while any of them still holds the object (a weak reference), so
 * watchers replaying the same events share their objects and frames.
 */
export class PackedVersion {
  /** Bytes of the version's JSON. */
  readonly length: number;
  private parsed: WeakRef<StoredObject> | undefined;
  /** Its deflated batch, once deflated; then its JSON is at `offset` of the batch's JSON. */
  private batch: PackedBatch | undefined;
  private offset = 0;

  /** `json`: the version's JSON, in memory of its own (not a slice of a pool that it would keep). */
  constructor(private json: Buffer | undefined) {
    this.length = json!.length;
  }

  /** Whether its batch has been deflated (else it holds its JSON). */
  get deflated(): boolean {
    return this.batch !== undefined;
  }

  /** Bytes held for this version: its JSON, or its share of its deflated batch. */
  get size(): number {
    return this.batch ? Math.ceil((this.batch.size * this.length) / this.batch.jsonLength) : this.length;
  }

  /** Hands the version to its deflated batch, at `offset` in the batch's JSON. */
  moveTo(batch: PackedBatch, offset: number): void {
    this.batch = batch;
    this.offset = offset;
    this.json = undefined;
  }

  /** Its JSON while its batch is not deflated. */
  pending(): Buffer {
    return this.json!;
  }

  /** The object (equal to the one packed; a new instance unless one is still held). */
  object(): StoredObject {
    let obj = this.parsed?.deref();
    if (!obj) {
      const json = this.batch ? this.batch.json().subarray(this.offset, this.offset + this.length) : this.json!;
      obj = JSON.parse(json.toString('utf8')) as StoredObject;
      this.parsed = new WeakRef(obj);
    }
    return obj;
  }
}

/** A copy of `b` in memory of its own. */
function ownCopy(b: Buffer): Buffer {
  const out = Buffer.allocUnsafeSlow(b.length);
  b.copy(out);
  return out;
}

/**
 * The packer of one resource's old versions: gathers them into batches of {@link BATCH_VERSIONS}
 * (or {@link BATCH_BYTES}) and deflates each full batch against the dictionary (the JSON of the
 * first version it packs, then of every {@link DICTIONARY_REFRESH}th, so that it follows what the
 * resource's objects look like; the last 32 KiB of it). A resource changed seldom leaves its last
 * versions in an open batch, held as their JSON, as before packing.
 */
export class VersionPacker {
  private dictionary: Buffer | undefined;
  private count = 0;
  private open: PackedVersion[] = [];
  private openBytes = 0;

  /** Packs `obj` (a plain JSON object). */
  pack(obj: StoredObject): PackedVersion {
    return this.packJSON(ownUTF8(JSON.stringify(obj)));
  }

  /**
   * Packs the version whose JSON (UTF-8, no trailing newline) is `json`, memory of its own (kept
   * until its batch is deflated).
   */
  packJSON(json: Buffer): PackedVersion {
    if (this.count++ % DICTIONARY_REFRESH === 0) this.dictionary = ownCopy(json.subarray(Math.max(0, json.length - MAX_DICTIONARY)));
    const v = new PackedVersion(json);
    this.open.push(v);
    this.openBytes += json.length;
    if (this.open.length >= BATCH_VERSIONS || this.openBytes >= BATCH_BYTES) this.deflateOpen();
    return v;
  }

  /** Deflates the open batch in one call (every version of it moves to the deflated batch). */
  private deflateOpen(): void {
    const versions = this.open;
    this.open = [];
    this.openBytes = 0;
    const all = Buffer.concat(versions.map((v) => v.pending()));
    const dictionary = this.dictionary!;
    const batch = new PackedBatch(deflateRawSync(all, { level: LEVEL, dictionary }).toString('latin1'), dictionary, all.length);
    let at = 0;
    for (const v of versions) {
      v.moveTo(batch, at);
      at += v.length;
    }
  }
}
