/**
 * The OpenAPI documents of one installer, built lazily once and kept as ready-to-send buffers
 * (JSON, gzipped JSON, gnostic protobuf) with their ETags, as kube-openapi's handlers cache them.
 * The content is static for built-in kinds; it is rebuilt when the installer's served resources
 * change (detected on each request by comparing the served kinds) or when `invalidate()` is called.
 * Building yields to the event loop between its steps; gzip runs off the loop.
 */
import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { OPENAPI_TITLE } from '../../apis/vendor.js';
import { type GroupVersionEntry, servesCustomKinds } from '../installer.js';
import { encodeGnosticMessage, toGnostic } from './gnostic.js';
import type { DocumentInfo } from './model.js';
import { ExtensionWriter, sortedObject, v3DocumentPath } from './names.js';
import { buildSwagger } from './swagger.js';
import { buildGroupVersionDocument } from './v3.js';

const gzipAsync = promisify(gzip);

/** One cached representation. */
export interface CachedBody {
  body: Buffer;
  /** Gzipped body, for clients accepting gzip. */
  gzip: Buffer;
  /** ETag without quotes: upper-case hex SHA-512 of the JSON form (kube-openapi `computeETag`). */
  etag: string;
  lastModified: Date;
}

/** The two forms of `/openapi/v2` (same ETag: the JSON's, as upstream). */
export interface SwaggerForms {
  json: CachedBody;
  protobuf: CachedBody;
}

/** The v3 index and the group-version documents by path (`api/v1`, `apis/apps/v1`). */
export interface V3Documents {
  index: CachedBody;
  documents: Map<string, CachedBody>;
}

/** What the service reads from the installer. */
export interface ServedGroupVersions {
  /** The served group versions, the upstream aliases' included (issue #9). */
  groupVersions(): GroupVersionEntry[];
  /**
   * Whether the upstream aliases are served (`--upstream-aliases`, issue #9): only then do the
   * documents carry the upstream names of the stock-client extensions.
   */
  readonly upstreamAliases: boolean;
}

/** Upper-case hex SHA-512, as kube-openapi's ETags and v3 hashes. */
export function computeETag(data: Buffer): string {
  return createHash('sha512').update(data).digest('hex').toUpperCase();
}

/** `/openapi/v3/<path>?hash=<etag>`, as handler3's `constructServerRelativeURL`. */
export function serverRelativeURL(documentPath: string, etag: string): string {
  return `/openapi/v3/${documentPath}?${new URLSearchParams({ hash: etag }).toString()}`;
}

async function cached(body: Buffer, etag: string, lastModified: Date): Promise<CachedBody> {
  return { body, gzip: await gzipAsync(body), etag, lastModified };
}

/** Second precision, as HTTP dates carry it. */
function now(): Date {
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}

/** A failed build is not cached: `forget` drops the promise so the next request tries again. */
function forgetOnFailure<T>(p: Promise<T>, forget: () => void): Promise<T> {
  return p.catch((err: unknown) => {
    forget();
    throw err;
  });
}

interface State {
  /** The served kinds and subresources this state was built from. */
  fingerprint: unknown[];
  swaggerJSON?: Promise<{ doc: Record<string, unknown>; json: CachedBody }>;
  swagger?: Promise<SwaggerForms>;
  v3?: Promise<V3Documents>;
}

/** The OpenAPI documents of an installer; see the module comment. */
export class OpenAPIService {
  private state: State | undefined;
  private readonly info: DocumentInfo;
  /** The v3 documents last built, by path, with what each was built from. */
  private v3Documents = new Map<string, { fingerprint: unknown[]; body: CachedBody }>();

  /** `version` is `info.version` of the documents (the server's gitVersion). */
  constructor(
    private readonly installer: ServedGroupVersions,
    version: string,
  ) {
    this.info = { title: OPENAPI_TITLE, version };
  }

  /** Drops every cached document; the next request rebuilds them. */
  invalidate(): void {
    this.state = undefined;
    this.v3Documents = new Map();
  }

  /** The JSON and protobuf forms of `/openapi/v2`. */
  swagger(): Promise<SwaggerForms> {
    const st = this.current();
    st.swagger ??= forgetOnFailure(
      this.swaggerJSON(st).then(async ({ doc, json }) => {
        const message = await toGnostic(doc, () => yieldToLoop());
        const proto = await encodeGnosticMessage(message, () => yieldToLoop());
        return { json, protobuf: await cached(proto, json.etag, json.lastModified) };
      }),
      () => (st.swagger = undefined),
    );
    return st.swagger;
  }

  /** The JSON form of `/openapi/v2` only (does not encode the protobuf form). */
  async swaggerJSONBody(): Promise<CachedBody> {
    return (await this.swaggerJSON(this.current())).json;
  }

  /** The v3 index and every group-version document. */
  v3(): Promise<V3Documents> {
    const st = this.current();
    st.v3 ??= forgetOnFailure(this.buildV3(), () => (st.v3 = undefined));
    return st.v3;
  }

  private swaggerJSON(st: State): Promise<{ doc: Record<string, unknown>; json: CachedBody }> {
    st.swaggerJSON ??= forgetOnFailure(
      (async () => {
        await yieldToLoop();
        const doc = buildSwagger(this.installer.groupVersions(), this.info, this.extensions());
        const body = Buffer.from(JSON.stringify(doc));
        return { doc, json: await cached(body, computeETag(body), now()) };
      })(),
      () => (st.swaggerJSON = undefined),
    );
    return st.swaggerJSON;
  }

  /**
   * Builds the v3 documents incrementally: a group version's document is rebuilt only when its
   * own resources changed. The built-in group versions never change, and a document names the
   * group versions of the built-in ones (their DeleteOptions and WatchEvent kinds) plus its own,
   * so adding, changing or removing a custom resource rebuilds its own document and the index.
   */
  private async buildV3(): Promise<V3Documents> {
    const gvs = this.installer.groupVersions();
    const builtIn = gvs.filter((gv) => !servesCustomKinds(gv));
    const ext = this.extensions();
    const documents = new Map<string, CachedBody>();
    const previous = this.v3Documents;
    const next = new Map<string, { fingerprint: unknown[]; body: CachedBody }>();
    const lastModified = now();
    for (const gv of gvs) {
      const path = v3DocumentPath(gv.group, gv.version);
      const fingerprint = groupVersionFingerprint(gv, this.installer.upstreamAliases);
      let doc = previous.get(path);
      if (!doc || !sameFingerprint(doc.fingerprint, fingerprint)) {
        await yieldToLoop();
        const all = servesCustomKinds(gv) ? [...builtIn, gv] : builtIn;
        const body = Buffer.from(JSON.stringify(buildGroupVersionDocument(gv, all, this.info, ext)));
        doc = { fingerprint, body: await cached(body, computeETag(body), lastModified) };
      }
      next.set(path, doc);
      documents.set(path, doc.body);
    }
    this.v3Documents = next;
    const paths = sortedObject([...documents].map(([p, d]): [string, { serverRelativeURL: string }] => [p, { serverRelativeURL: serverRelativeURL(p, d.etag) }]));
    const index = Buffer.from(JSON.stringify({ paths }));
    return { index: await cached(index, computeETag(index), lastModified), documents };
  }

  /** The current state, rebuilt when the served kinds changed since it was made. */
  private current(): State {
    const fingerprint = this.fingerprint();
    const st = this.state;
    if (st && sameFingerprint(st.fingerprint, fingerprint)) return st;
    this.state = { fingerprint };
    return this.state;
  }

  private extensions(): ExtensionWriter {
    return new ExtensionWriter(this.installer.upstreamAliases);
  }

  private fingerprint(): unknown[] {
    const out: unknown[] = [];
    for (const gv of this.installer.groupVersions()) out.push(...groupVersionFingerprint(gv, this.installer.upstreamAliases));
    return out;
  }
}

/** What a group version's documents are built from: its resources' kinds, stores and subresources. */
function groupVersionFingerprint(gv: GroupVersionEntry, upstreamAliases: boolean): unknown[] {
  const out: unknown[] = [upstreamAliases];
  for (const [resource, entry] of gv.resources) out.push(gv.group, gv.version, resource, entry.kind, entry.creater, entry.lister, [...entry.subresources.keys()].join(','), [...(entry.creaters?.keys() ?? [])].join(','));
  return out;
}

function sameFingerprint(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
