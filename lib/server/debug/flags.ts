/**
 * `/debug/flags/v` (upstream's routes.DebugFlags with the klog verbosity setter, installed with
 * profiling): `PUT` a level as the body to change `-v` at run time (`successfully set
 * klog.logging.verbosity to 3`); another method is 406 `unsupported http method`; a bad level 400
 * `failed set klog.logging.verbosity x: strconv.ParseUint: parsing "x": invalid syntax`.
 * `/debug/flags/` lists the settable flags. Answers are plain text lines, as upstream's.
 */
import type { Context } from 'koa';
import { type Logger, setVerbosity } from '../logging.js';

/** The largest level klog accepts (a uint32). */
const MAX_LEVEL = 2 ** 32 - 1;
/** Longest body read (a level is a few digits). */
const MAX_BODY = 64;

function plainLine(koa: Context, status: number, text: string): void {
  koa.status = status;
  koa.type = 'text/plain; charset=utf-8';
  koa.set('X-Content-Type-Options', 'nosniff');
  koa.body = `${text}\n`;
}

/** Serves the index of settable flags. */
export function serveFlagsIndex(koa: Context): void {
  koa.type = 'text/html; charset=utf-8';
  koa.body = '<html>\n<head>\n<title>/debug/flags/</title>\n</head>\n<body>\n/debug/flags/<br>\n<br>\nflags:<br>\n<table>\n\n<tr>v<br>\n\n</table>\n<br>\nfull flags configurable<br>\n</body>\n</html>\n';
}

/** Reads at most MAX_BODY bytes of the request body as text. */
async function readBody(koa: Context): Promise<string> {
  let text = '';
  for await (const chunk of koa.req) {
    text += (chunk as Buffer).toString('utf8');
    if (text.length > MAX_BODY) break;
  }
  return text;
}

/** Serves `/debug/flags/v`: PUT sets the verbosity of `log`. */
export async function serveVerbosityFlag(koa: Context, log: Logger): Promise<void> {
  if (koa.method !== 'PUT') return plainLine(koa, 406, 'unsupported http method');
  const value = await readBody(koa);
  let reason = '';
  if (!/^[0-9]+$/.test(value)) reason = `strconv.ParseUint: parsing ${JSON.stringify(value)}: invalid syntax`;
  else if (Number(value) > MAX_LEVEL) reason = `strconv.ParseUint: parsing ${JSON.stringify(value)}: value out of range`;
  if (reason) return plainLine(koa, 400, `failed set klog.logging.verbosity ${value}: ${reason}`);
  setVerbosity(log, Number(value));
  plainLine(koa, 200, `successfully set klog.logging.verbosity to ${value}`);
}
