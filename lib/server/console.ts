/**
 * The web console's static files on the secure port (issue #22 § Served at `/console/`): the app
 * `console/build.mjs` builds into `dist/console`, read into memory once at start and served before
 * authentication (the app is public and holds no data: every request it makes for data is an
 * ordinary API request with the user's own credentials), with `/console/config.json` giving the
 * server's words (lib/apis/vendor.ts). Only names of the in-memory map are served, so no path can
 * reach another file; every other path under `/console/` is a client-side route and gets
 * `index.html`. Nothing here imports the console's sources.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Next } from 'koa';
import { CONSOLE_FIELD_MANAGER, META_GROUP, UPSTREAM_DOMAIN, VENDOR_DOMAIN } from '../apis/vendor.js';
import { StatusError, newMethodNotAllowed } from '../apimachinery/errors.js';
import type { Logger } from './logging.js';

/** Where the console is served. */
export const CONSOLE_PATH = '/console';

/**
 * The strict Content-Security-Policy of every console response: scripts, styles and requests
 * only from the server itself; no inline script, no `eval`, no framing.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** One representation of a file: its bytes and strong ETag (a hash of the bytes, quoted). */
interface Representation {
  body: Buffer;
  etag: string;
}

/** One file held in memory, and (made at its first request, off the start path) its gzip encoding when that is smaller. */
interface ConsoleFile {
  contentType: string;
  identity: Representation;
  gzip?: Representation | null;
}

/** The console's files by name (`app.js`, `config.json`). */
export type ConsoleFiles = ReadonlyMap<string, ConsoleFile>;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** The package root: the nearest directory above this module holding `package.json` (sources, `dist/lib/...` or the bundle `dist/*.mjs`). */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
  return dir;
}

/** The default directory of the built console: `dist/console` under the package root. */
export function defaultConsoleDir(): string {
  return path.join(packageRoot(), 'dist', 'console');
}

function representation(body: Buffer): Representation {
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** Files over 1 KiB are kept gzipped too (the app bundle shrinks to about a third). */
const GZIP_MIN_BYTES = 1024;

function fileOf(body: Buffer, contentType: string): ConsoleFile {
  return { contentType, identity: representation(body) };
}

/** The gzip representation of `file` (made once), or null when the file is small or does not shrink. */
function gzipOf(file: ConsoleFile): Representation | null {
  if (file.gzip === undefined) {
    const body = file.identity.body;
    const gzipped = body.length >= GZIP_MIN_BYTES ? gzipSync(body, { level: 9 }) : undefined;
    file.gzip = gzipped && gzipped.length < body.length ? representation(gzipped) : null;
  }
  return file.gzip;
}

/** Whether an `Accept-Encoding` header accepts gzip (`gzip` or `*`, with a non-zero q). */
function acceptsGzip(acceptEncoding: string): boolean {
  return acceptEncoding.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q) > 0);
  });
}

/**
 * Reads the built console (the regular files directly in `dir`) into memory, adding
 * `config.json` (issue #22: the API group domain, the meta group and the console's field
 * manager). A missing or empty directory logs one warning and yields undefined.
 */
export function loadConsoleFiles(dir: string, log: Logger): ConsoleFiles | undefined {
  const files = new Map<string, ConsoleFile>();
  try {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (!statSync(file).isFile()) continue;
      files.set(name, fileOf(readFileSync(file), CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream'));
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (!files.has('index.html')) {
    log.warn({ dir }, 'the console is not built (run `make build`): /console/ answers 404');
    return undefined;
  }
  const config = { groupDomain: VENDOR_DOMAIN, aliasGroupDomain: UPSTREAM_DOMAIN, metaGroup: META_GROUP, fieldManager: CONSOLE_FIELD_MANAGER };
  files.set('config.json', fileOf(Buffer.from(JSON.stringify(config)), CONTENT_TYPES['.json']!));
  return files;
}

function notBuilt(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the console is not built: run `make build`',
    reason: 'NotFound',
    code: 404,
  });
}

/** Whether an `If-None-Match` header names `etag` (or is `*`). */
function matches(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v === etag || v === `W/${etag}`;
  });
}

/**
 * Koa middleware serving `/console` (301 to `/console/`) and `/console/...`: a file of `files`
 * by its name, any other path `index.html` (client-side routes), with `Content-Type`, a strong
 * `ETag` per representation (`If-None-Match` → 304), gzip when accepted, `Cache-Control: no-cache`
 * and the security headers; other methods 405. `files` undefined (not built): 404 Status. Other
 * paths go on down the chain.
 */
export function withConsole(files: ConsoleFiles | undefined) {
  return async (koa: Context, next: Next): Promise<void> => {
    const p = koa.path;
    if (p !== CONSOLE_PATH && !p.startsWith(`${CONSOLE_PATH}/`)) return next();
    if (koa.method !== 'GET' && koa.method !== 'HEAD') throw newMethodNotAllowed();
    if (p === CONSOLE_PATH) {
      koa.status = 301;
      koa.redirect(`${CONSOLE_PATH}/${koa.search}`);
      return;
    }
    if (!files) throw notBuilt();
    const name = p.slice(CONSOLE_PATH.length + 1);
    const file = files.get(name) ?? files.get('index.html')!;
    const gzip = gzipOf(file);
    const rep = gzip && acceptsGzip(koa.get('Accept-Encoding')) ? gzip : file.identity;
    koa.set('Cache-Control', 'no-cache');
    koa.set('X-Content-Type-Options', 'nosniff');
    koa.set('Referrer-Policy', 'no-referrer');
    koa.set('Content-Security-Policy', CONSOLE_CSP);
    if (gzip) koa.set('Vary', 'Accept-Encoding');
    koa.set('ETag', rep.etag);
    if (matches(koa.get('If-None-Match'), rep.etag)) {
      koa.status = 304;
      return;
    }
    koa.status = 200;
    koa.set('Content-Type', file.contentType);
    if (rep === gzip) koa.set('Content-Encoding', 'gzip');
    koa.body = rep.body;
  };
}
