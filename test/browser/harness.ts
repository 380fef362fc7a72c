/**
 * The browser test harness (issue #22 § Tests): a real in-process test server on the run's etcd
 * with the console on and static bearer tokens for the users a test file names, and one headless
 * Debian Chromium (puppeteer-core; `CHROMIUM_PATH` overrides `/usr/bin/chromium`) per test file
 * that trusts exactly that server's certificate. The console is built first when `dist/console`
 * is missing or older than a file under `console/`.
 *
 * Call {@link useConsole} inside a `describe` (its hooks belong to that block; at a file's top
 * level they would be root hooks of the whole mocha run).
 *
 * ```ts
 * const ui = useConsole({ users: { admin: ['system:masters'], alice: [] } });
 * it('shows the list', async () => {
 *   const page = await ui().openConsole('/api/v1/namespaces/default/configmaps', { token: ui().token('admin') });
 *   await waitForText(page, 'kube-root-ca.crt');
 *   await screenshot(page, 'list');
 * });
 * ```
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { startTestServer, type TestServer, type TestServerOptions, usePKI } from '../framework/test-server.js';
import type { TestClient } from '../framework/client.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CONSOLE_SRC = path.join(ROOT, 'console');
const CONSOLE_APP = path.join(ROOT, 'dist', 'console', 'app.js');
/** Where {@link screenshot} writes: `.test-results/browser/<name>.png`. */
export const SCREENSHOT_DIR = path.join(ROOT, '.test-results', 'browser');

/** The newest modification time (ms) of the files under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

let built = false;

/** Builds the console (`node console/build.mjs`) once per process, when `dist/console/app.js` is missing or older than a file under `console/`. */
export function ensureConsoleBuilt(): void {
  if (built) return;
  if (!existsSync(CONSOLE_APP) || statSync(CONSOLE_APP).mtimeMs < newestMtime(CONSOLE_SRC)) {
    execFileSync(process.execPath, [path.join(CONSOLE_SRC, 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  }
  built = true;
}

/** The base64 SHA-256 of a certificate's SubjectPublicKeyInfo, as Chromium's `--ignore-certificate-errors-spki-list` takes it. */
function spkiHash(certPem: string): string {
  const spki = new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

/** Options of {@link useConsole}. */
export interface ConsoleOptions {
  /** The users with a static bearer token, by name: their groups (`['system:masters']` for an admin). */
  users?: Record<string, string[]>;
  /** More test-server options (the console is always on). */
  server?: Omit<TestServerOptions, 'tokens' | 'console'>;
}

/** What a test gets from {@link useConsole}. */
export interface ConsoleFixture {
  /** The running test server (`url`, `cp`…). */
  server: TestServer;
  /** The server's admin client (client certificate): "another client" making objects. */
  admin: TestClient;
  /** The browser (one per test file). */
  browser: Browser;
  /** The bearer token of a user named in `users`. @throws Error for an unknown user. */
  token(user: string): string;
  /** A client of the server authenticated as a user named in `users`. */
  clientOf(user: string): TestClient;
  /** The URL of `/console<consolePath>`, with `#token=<token>` when given. */
  consoleURL(consolePath: string, opts?: { token?: string }): string;
  /**
   * A new blank page (1280×800): for a test that must see the navigation's response or hook the
   * page before it loads. Opened in a test (or its beforeEach), closed after the test; opened in a
   * before() hook, kept until the block ends.
   */
  newPage(): Promise<Page>;
  /** A new page at {@link consoleURL}, once the document has loaded (closed as {@link newPage}'s). */
  openConsole(consolePath: string, opts?: { token?: string }): Promise<Page>;
}

/**
 * Mocha fixture (call it inside a `describe`): before the block's tests, builds the console if
 * needed, starts a test server with the console on and a token per user, and launches Chromium;
 * after them, closes both. Pages opened by a test are closed after it. Use the getter inside tests.
 */
export function useConsole(opts: ConsoleOptions = {}): () => ConsoleFixture {
  const users = opts.users ?? { admin: ['system:masters'] };
  const tokens = new Map(Object.keys(users).map((u) => [u, randomBytes(16).toString('hex')]));
  const tokenFile = [...tokens].map(([u, t]) => `${t},${u},${u}-uid,"${users[u]!.join(',')}"`).join('\n');
  let fixture: ConsoleFixture | undefined;
  let pages: Page[] = [];
  let inTest = false;
  before(async function () {
    this.timeout(120_000);
    ensureConsoleBuilt();
    const server = await startTestServer({ ...opts.server, tokens: `${tokenFile}\n`, console: {} });
    let browser: Browser;
    try {
      const { pki } = await usePKI();
      browser = await puppeteer.launch({
        executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
        headless: true,
        // Tests run as root, where Chromium's sandbox cannot start; trust only the test server's key.
        args: ['--no-sandbox', `--ignore-certificate-errors-spki-list=${spkiHash(pki.servingCertPem)}`],
      });
    } catch (err) {
      await server.stop();
      throw err;
    }
    const token = (user: string): string => {
      const t = tokens.get(user);
      if (!t) throw new Error(`no user ${user} in useConsole({ users })`);
      return t;
    };
    fixture = {
      server,
      admin: server.admin,
      browser,
      token,
      clientOf: (user) => server.admin.as({ token: token(user) }),
      consoleURL: (consolePath, o = {}) => `${server.url}/console${consolePath}${o.token ? `#token=${encodeURIComponent(o.token)}` : ''}`,
      async newPage() {
        const page = await browser.newPage();
        if (inTest) pages.push(page);
        await page.setViewport({ width: 1280, height: 800 });
        return page;
      },
      async openConsole(consolePath, o = {}) {
        const page = await fixture!.newPage();
        await page.goto(fixture!.consoleURL(consolePath, o), { waitUntil: 'load' });
        return page;
      },
    };
  });
  beforeEach(() => {
    inTest = true;
  });
  afterEach(async () => {
    inTest = false;
    const open = pages;
    pages = [];
    await Promise.all(open.map((p) => p.close().catch(() => undefined)));
  });
  after(async function () {
    this.timeout(30_000);
    await fixture?.browser.close().catch(() => undefined);
    await fixture?.server.stop();
  });
  return () => {
    if (!fixture) throw new Error('console fixture not started');
    return fixture;
  };
}

/** Saves a full-page screenshot as `.test-results/browser/<name>.png` (test output kept by CI). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file as `${string}.png`, fullPage: true });
  return file;
}

/** Waits until the page's visible text (`document.body.innerText`) contains `text`. @throws TimeoutError after `timeoutMs`. */
export async function waitForText(page: Page, text: string, timeoutMs = 5000): Promise<void> {
  try {
    await page.waitForFunction((t: string) => document.body?.innerText.includes(t), { timeout: timeoutMs, polling: 50 }, text);
  } catch (err) {
    const shown = await pageText(page).catch(() => '(page gone)');
    throw new Error(`${JSON.stringify(text)} not shown within ${timeoutMs} ms (${(err as Error).message}); the page shows:\n${shown.slice(0, 2000)}`, { cause: err });
  }
}

/** The page's visible text now (`document.body.innerText`). */
export function pageText(page: Page): Promise<string> {
  return page.evaluate(() => document.body?.innerText ?? '');
}
