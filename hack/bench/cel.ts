/**
 * Expression benchmark (issue #3 item 8): compile and evaluate rates of a typical validation
 * rule over a 100-field object, with and without cost tracking, and the overhead of tracking.
 * Run: `npx tsx hack/bench/cel.ts`. Figures are printed, never asserted.
 */
import { compile, CompileErrors, createEnvironment, type OpenAPISchema, type Program } from '../../lib/cel/index.js';
import { printTable } from './stats.js';

const FIELDS = 100;

/** 60 integers, 30 bounded strings, 10 bounded string lists. */
function schema(): OpenAPISchema {
  const properties: Record<string, OpenAPISchema> = {};
  for (let i = 0; i < FIELDS; i++) {
    if (i < 60) properties[`f${i}`] = { type: 'integer' };
    else if (i < 90) properties[`s${i}`] = { type: 'string', maxLength: 64 };
    else properties[`l${i}`] = { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 20 } };
  }
  return { type: 'object', properties };
}

function object(): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let i = 0; i < FIELDS; i++) {
    if (i < 60) o[`f${i}`] = i;
    else if (i < 90) o[`s${i}`] = `value-${i}`;
    else o[`l${i}`] = Array.from({ length: 10 }, (_, j) => `item-${j}`);
  }
  return o;
}

const RULE = [
  'self.f0 >= 0',
  'self.f1 <= self.f2 + 10',
  'self.f10 * 2 < 1000',
  'self.s60.size() <= 64',
  "self.s61.matches('^[a-z0-9-]+$')",
  "self.s62.startsWith('value')",
  'self.l90.all(x, x.size() < 20)',
  'self.l91.exists(x, x == "item-3")',
  '(has(self.f59) ? self.f59 < 1000 : true)',
].join(' && ');

/** Runs `op` repeatedly for about `seconds` after a warm-up; returns operations per second. */
function rate(op: () => void, seconds = 1): number {
  for (let i = 0; i < 2000; i++) op();
  let n = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(seconds * 1e9));
  let now = start;
  while (now < deadline) {
    for (let i = 0; i < 200; i++) op();
    n += 200;
    now = process.hrtime.bigint();
  }
  return n / (Number(now - start) / 1e9);
}

function main(): void {
  const env = createEnvironment({ variables: [{ name: 'self', schema: schema() }] });
  const raw = object();
  const prepared = env.prepare({ self: raw });
  const build = (): Program => {
    const p = compile(RULE, env);
    if (p instanceof CompileErrors) throw new Error(p.message);
    return p;
  };
  const program = build();
  const check = program.evaluate(prepared);
  if (!check.ok || check.value !== true) throw new Error(`rule did not hold: ${JSON.stringify(check)}`);

  const compileRate = rate(() => void build());
  // The cost-instrumented tree is built on a program's first tracked evaluation.
  const firstTracked = rate(() => void build().evaluate(prepared));
  const untracked = rate(() => void program.evaluate(prepared, { budget: Infinity }));
  const tracked = rate(() => void program.evaluate(prepared));
  const convertAndTracked = rate(() => void program.evaluate({ self: raw }));
  const us = (r: number) => 1e6 / r;

  console.log(`rule over a ${FIELDS}-field object: ${RULE}`);
  console.log(`estimated cost [${program.estimatedCost.min}, ${program.estimatedCost.max}], actual cost ${check.cost}`);
  printTable(
    ['phase', 'ops/s', 'µs/op'],
    [
      ['compile (parse, check, validate, estimate)', compileRate, us(compileRate)],
      ['compile + first tracked evaluation', firstTracked, us(firstTracked)],
      ['evaluate, no cost tracking', untracked, us(untracked)],
      ['evaluate, cost tracking', tracked, us(tracked)],
      ['evaluate, cost tracking + JSON conversion', convertAndTracked, us(convertAndTracked)],
    ],
  );
  console.log(`cost tracking overhead: ${(((untracked - tracked) / tracked) * 100).toFixed(1)}% more time per evaluation`);
}

main();
