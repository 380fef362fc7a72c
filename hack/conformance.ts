/**
 * `make conformance` (issue #16 item 8): runs every test whose title names a spec table row
 * (test/conformance/covers.ts) and prints, for every row of every table in both spec documents,
 * `section → row → test name(s) → pass/fail/none`, then the count of rows with no test. Exits 1
 * when a naming test fails, a tag names no row, or the run dies. The spec is read from
 * `../shared/spec` (or `$SPEC_DIR`). Usage: `npx tsx hack/conformance.ts [mocha spec globs…]`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildReport, formatReport, type TestResult } from '../test/conformance/report.js';
import { loadSpecRows, specDir } from '../test/conformance/spec-tables.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const globs = process.argv.slice(2);
const specs = globs.length > 0 ? globs : ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'];

const dir = specDir(root);
if (!existsSync(dir)) {
  console.error(`conformance: the spec documents are not at ${dir}; set SPEC_DIR to the directory holding 000_*.txt and 001_*.txt`);
  process.exit(2);
}
const rows = loadSpecRows(dir);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'orch-conformance-'));
const resultsFile = path.join(tmp, 'results.jsonl');

const code = await new Promise<number>((resolve) => {
  const child = spawn('npx', ['mocha', '--reporter', './hack/mocha-conformance.cjs', '--grep', '\\[spec: ', ...specs], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, CONFORMANCE_RESULTS: resultsFile },
  });
  child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
});
const results: TestResult[] = existsSync(resultsFile)
  ? readFileSync(resultsFile, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as TestResult)
  : [];
rmSync(tmp, { recursive: true, force: true });

const report = buildReport(rows, results);
console.log(formatReport(report));
const died = code !== 0 && report.counts.fail === 0;
if (died) console.error(`conformance: mocha exited with ${code} without a failing tagged test (a load error?)`);
process.exit(report.counts.fail > 0 || report.unknownTags.length > 0 || died ? 1 : 0);
