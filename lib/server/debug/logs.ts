/**
 * The `/logs/` handler (`--enable-logs-handler`, off by default as upstream from v1.31; v1.30 had
 * it on, deprecated): files under the log directory (`/var/log`) served as Go's http.ServeFile serves them —
 * `/logs/` lists the directory as Go's HTML listing, `/logs/<path>` answers a file (or a nested
 * directory's listing; a directory named without its trailing slash is redirected to it), a path
 * with a `..` segment is 400 `invalid URL path`, a base name longer than 255 bytes 404
 * `file not found` (upstream's logFileNameIsTooLong), a missing file 404 `404 page not found`, an
 * unreadable one 403 `403 Forbidden`. Errors are plain text, as upstream's.
 */
import { createReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'koa';

/** Upstream's default log directory. */
export const DEFAULT_LOGS_DIR = '/var/log';
/** Longest file name upstream serves (bytes). */
const MAX_NAME_BYTES = 255;
/** Bytes Go's DetectContentType looks at. */
const SNIFF_BYTES = 512;

/** Content types of a few extensions (Go's mime table); others are sniffed. */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'text/xml; charset=utf-8',
  '.gz': 'application/gzip',
  '.txt': 'text/plain; charset=utf-8',
};

function plain(koa: Context, status: number, text: string): void {
  koa.status = status;
  koa.type = 'text/plain; charset=utf-8';
  koa.set('X-Content-Type-Options', 'nosniff');
  koa.body = `${text}\n`;
}

/** Go's HTML escaping of a listed name. */
function htmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' })[c]!);
}

/** Text (UTF-8 without control bytes but whitespace and ESC) or binary, as Go's sniffing decides for logs. */
function sniff(head: Buffer): string {
  for (const b of head) {
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d && b !== 0x1b) return 'application/octet-stream';
  }
  return 'text/plain; charset=utf-8';
}

/** Go's dirList: names sorted, directories with a trailing slash. */
async function serveListing(koa: Context, dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
  koa.type = 'text/html; charset=utf-8';
  koa.body =
    '<!doctype html>\n<meta name="viewport" content="width=device-width">\n<pre>\n' +
    names.map((n) => `<a href="${htmlEscape(encodeURI(n))}">${htmlEscape(n)}</a>\n`).join('') +
    '</pre>\n';
}

async function serveFile(koa: Context, file: string, size: number, mtime: Date): Promise<void> {
  let type = BY_EXTENSION[path.extname(file).toLowerCase()];
  if (!type) {
    const fh = await open(file, 'r');
    try {
      const buf = Buffer.alloc(Math.min(SNIFF_BYTES, size));
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      type = sniff(buf.subarray(0, bytesRead));
    } finally {
      await fh.close();
    }
  }
  koa.type = type;
  koa.length = size;
  koa.lastModified = mtime;
  koa.set('Accept-Ranges', 'bytes');
  koa.body = koa.method === 'HEAD' ? null : createReadStream(file);
}

/**
 * Serves `/logs` or `/logs/<rel>` from `logsDir`.
 * @param rel the path after `/logs/` as received (percent-decoded by the router), '' for the directory.
 */
export async function serveLogs(koa: Context, logsDir: string, rel: string): Promise<void> {
  if (rel.split('/').includes('..')) return plain(koa, 400, 'invalid URL path');
  const actual = path.join(logsDir, rel);
  if (Buffer.byteLength(path.basename(actual)) > MAX_NAME_BYTES) return plain(koa, 404, 'file not found');
  let st;
  try {
    st = await stat(actual);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return plain(koa, 403, '403 Forbidden');
    return plain(koa, 404, '404 page not found');
  }
  try {
    if (st.isDirectory()) {
      if (!koa.path.endsWith('/')) {
        koa.status = 301;
        koa.set('Location', `${path.posix.basename(koa.path)}/${koa.querystring ? `?${koa.querystring}` : ''}`);
        return;
      }
      return await serveListing(koa, actual);
    }
    return await serveFile(koa, actual, st.size, st.mtime);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return plain(koa, 403, '403 Forbidden');
    return plain(koa, 500, '500 Internal Server Error');
  }
}
