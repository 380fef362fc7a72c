/**
 * The conformance report (issue #16 item 8): every spec table row with the tests that name it
 * and their outcome. Pure: `hack/conformance.ts` feeds it the rows and the test results.
 */
import { coveredRows } from './covers.js';
import type { SpecRow } from './spec-tables.js';

/** One finished test as the conformance reporter records it. */
export interface TestResult {
  /** Full title (suite titles and the test title, space-separated), tags included. */
  title: string;
  state: 'passed' | 'failed' | 'pending';
}

/** A row's verdict: every naming test passed, one failed, or no test names it. */
export type RowVerdict = 'pass' | 'fail' | 'none';

/** One line of the report. */
export interface RowReport {
  row: SpecRow;
  /** Titles (tags stripped) of the tests naming the row, in run order. */
  tests: string[];
  verdict: RowVerdict;
}

/** The whole report. */
export interface ConformanceReport {
  rows: RowReport[];
  /** Tags that name no spec row, with the test title carrying them. */
  unknownTags: Array<{ tag: string; test: string }>;
  counts: Record<RowVerdict, number>;
}

function stripTags(title: string): string {
  return title.replace(/\s*\[spec: .+$/, '');
}

/**
 * Builds the report: a row passes when at least one test names it and every such test passed
 * (a pending test counts as not covering), fails when one of them failed.
 */
export function buildReport(rows: readonly SpecRow[], results: readonly TestResult[]): ConformanceReport {
  const byId = new Map<string, RowReport>(rows.map((row) => [row.id, { row, tests: [], verdict: 'none' as RowVerdict }]));
  const unknownTags: ConformanceReport['unknownTags'] = [];
  for (const r of results) {
    for (const tag of coveredRows(r.title)) {
      const line = byId.get(tag);
      if (!line) {
        unknownTags.push({ tag, test: stripTags(r.title) });
        continue;
      }
      if (r.state === 'pending') continue;
      line.tests.push(stripTags(r.title));
      if (r.state === 'failed') line.verdict = 'fail';
      else if (line.verdict === 'none') line.verdict = 'pass';
    }
  }
  const report = [...byId.values()];
  const counts: Record<RowVerdict, number> = { pass: 0, fail: 0, none: 0 };
  for (const line of report) counts[line.verdict]++;
  return { rows: report, unknownTags, counts };
}

/** Longest test title printed before it is cut with `…`. */
const TITLE_CHARS = 90;

/**
 * The report as text: per row `section → row → test name(s) → verdict` (the first test's title
 * and `(+N more)`), then the unknown tags and a summary line.
 */
export function formatReport(report: ConformanceReport): string {
  const out: string[] = [];
  let section = '';
  for (const { row, tests, verdict } of report.rows) {
    const heading = `${row.doc} § ${row.section}`;
    if (heading !== section) {
      out.push('', heading);
      section = heading;
    }
    const first = tests[0] === undefined ? '(no test)' : tests[0].length > TITLE_CHARS ? `${tests[0].slice(0, TITLE_CHARS - 1)}…` : tests[0];
    const more = tests.length > 1 ? ` (+${tests.length - 1} more)` : '';
    out.push(`  ${heading} → ${row.key} → ${first}${more} → ${verdict}`);
  }
  if (report.unknownTags.length > 0) {
    out.push('', 'Tags naming no spec row:');
    for (const u of report.unknownTags) out.push(`  [spec: ${u.tag}] in "${u.test}"`);
  }
  const { pass, fail, none } = report.counts;
  out.push('', `${report.rows.length} rows: ${pass} pass, ${fail} fail, ${none} with no test`);
  return out.join('\n');
}
