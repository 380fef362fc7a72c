/**
 * `helm template` for our chart without helm: renders a chart directory to stdout.
 * Usage: tsx hack/helm-render/main.ts [--name R] [--namespace NS] [-f values.yaml]...
 *        [--set a.b=c]... [--notes] <chart-dir>
 * Exits 1 with the template error on stderr when rendering fails.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { formatStream, loadChart, mergeValues, parseSet, renderChart, type Values } from './chart.js';

function main(argv: string[]): void {
  let name = 'release-name';
  let namespace = 'default';
  let notes = false;
  let values: Values = {};
  let dir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--name') name = next();
    else if (a === '--namespace' || a === '-n') namespace = next();
    else if (a === '-f' || a === '--values') values = mergeValues(values, (parseYaml(readFileSync(next(), 'utf8')) ?? {}) as Values);
    else if (a === '--set') values = mergeValues(values, parseSet(next()));
    else if (a === '--notes') notes = true;
    else if (a.startsWith('-')) throw new Error(`unknown flag ${a}`);
    else dir = a;
  }
  if (!dir) throw new Error('usage: helm-render [--name R] [--namespace NS] [-f values.yaml] [--set k=v] [--notes] <chart-dir>');
  const rendered = renderChart(loadChart(dir), { name, namespace, values });
  process.stdout.write(formatStream(rendered));
  if (notes && rendered.notes) process.stdout.write(`\nNOTES:\n${rendered.notes}`);
}

try {
  main(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`Error: ${(err as Error).message}\n`);
  process.exitCode = 1;
}
