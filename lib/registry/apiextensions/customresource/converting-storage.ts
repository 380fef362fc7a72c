/**
 * The storage of one served version of a custom resource whose CRD converts through a webhook
 * (issue #14 item 5; upstream converts in the storage codec of each version): objects are
 * converted to the stored version on their way to etcd and to the served version on their way
 * out — reads, lists (one ConversionReview per list), update callbacks, deletes and watch events
 * (in order, one at a time). The generic store and strategy above it see only served-version
 * objects, so validation and managed fields work in the request's version, as upstream. A
 * conversion failure fails the request with the converter's Status and writes nothing; a watch
 * ends with an ERROR event carrying it.
 */
import { StatusError } from '../../../apimachinery/errors.js';
import type { Obj } from '../../../apis/define.js';
import { ConversionError, conversionErrorStatus } from '../../../apiextensions/conversion/errors.js';
import type { CustomResourceConverter } from '../../../apiextensions/conversion/converter.js';
import { DELETE_OBJECT, type DeleteOptions, type GetOptions, type ListOptions, type ListResult, type StorageInterface, type StoredObject, type UpdateFunc, type UpdateOptions, type WatchEvent, type Watcher } from '../../../storage/interface.js';
import { iterableWatcher } from '../../../storage/iterable-watcher.js';

/** What a failed conversion is thrown as: the converter's Status error. */
function asStatus(err: unknown): unknown {
  return err instanceof ConversionError ? conversionErrorStatus(err) : err;
}

/** A storage interface over `inner` (stored objects) whose objects are in `servedAPIVersion`. */
export class ConvertingStorage implements StorageInterface {
  constructor(
    private readonly inner: StorageInterface,
    private readonly converter: CustomResourceConverter,
    /** The served and the stored `apiVersion`, and the served list kind (named in list conversion errors). */
    private readonly versions: { served: string; stored: string; listKind: string },
    /** Applies the served version's defaults to a converted object in place (upstream defaults after conversion on read); absent when the schema has none. */
    private readonly defaultServed?: (obj: Obj) => void,
  ) {}

  private async toServed(objs: StoredObject[], list = false): Promise<StoredObject[]> {
    if (objs.length === 0) return objs;
    let out: Obj[];
    try {
      out = await this.converter.convert(objs as Obj[], this.versions.served, undefined, list ? this.versions.listKind : undefined);
    } catch (err) {
      throw asStatus(err);
    }
    const defaults = this.defaultServed;
    if (!defaults) return out as StoredObject[];
    // Stored objects are shared (the watch cache): defaults go on a copy of one not converted.
    return out.map((o, i) => {
      const copy = o === objs[i] ? (structuredClone(o) as Obj) : o;
      defaults(copy);
      return copy as StoredObject;
    });
  }

  private async one(obj: StoredObject): Promise<StoredObject> {
    return (await this.toServed([obj]))[0]!;
  }

  private async toStored(obj: StoredObject): Promise<StoredObject> {
    try {
      return (await this.converter.convert([obj as Obj], this.versions.stored))[0] as StoredObject;
    } catch (err) {
      throw asStatus(err);
    }
  }

  async create(key: string, obj: StoredObject, opts?: { dryRun?: boolean }): Promise<StoredObject> {
    return this.one(await this.inner.create(key, await this.toStored(obj), opts));
  }

  async get(key: string, opts: GetOptions): Promise<StoredObject | null> {
    const obj = await this.inner.get(key, opts);
    return obj ? this.one(obj) : null;
  }

  async getList(prefix: string, opts: ListOptions): Promise<ListResult> {
    const res = await this.inner.getList(prefix, opts);
    return { ...res, items: await this.toServed(res.items, true) };
  }

  async guaranteedUpdate(key: string, opts: UpdateOptions, tryUpdate: UpdateFunc): Promise<StoredObject> {
    const updated = await this.inner.guaranteedUpdate(key, opts, async (current) => {
      // A missing object (create on update) comes as an empty object: nothing to convert.
      const served = current.metadata === undefined && current.apiVersion === undefined ? current : await this.one(current);
      const updated = await tryUpdate(served);
      return updated === DELETE_OBJECT ? updated : this.toStored(updated);
    });
    return this.one(updated);
  }

  async delete(key: string, opts: DeleteOptions): Promise<StoredObject> {
    const validate = opts.validateDeletion;
    const deleted = await this.inner.delete(key, validate ? { ...opts, validateDeletion: async (cur) => validate(await this.one(cur)) } : opts);
    return this.one(deleted);
  }

  async watch(keyOrPrefix: string, opts: ListOptions): Promise<Watcher> {
    const inner = await this.inner.watch(keyOrPrefix, opts);
    const convertEvent = async (ev: WatchEvent): Promise<WatchEvent> => {
      if (ev.type === 'BOOKMARK' || ev.type === 'ERROR') return ev;
      return { ...ev, object: await this.one(ev.object) };
    };
    async function* converted(): AsyncGenerator<WatchEvent> {
      for await (const ev of inner) {
        try {
          yield await convertEvent(ev);
        } catch (err) {
          const status = asStatus(err);
          if (!(status instanceof StatusError)) throw err;
          yield { type: 'ERROR', object: status.status as unknown as StoredObject };
          inner.stop();
          return;
        }
      }
    }
    return iterableWatcher({ [Symbol.asyncIterator]: converted }, { stop: (graceful) => inner.stop(graceful), ...(inner.done && { done: inner.done }) });
  }

  count(prefix: string): Promise<number> {
    return this.inner.count(prefix);
  }

  currentRevision(): Promise<string> {
    return this.inner.currentRevision();
  }
}
