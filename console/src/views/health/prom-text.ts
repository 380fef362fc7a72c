/**
 * The Prometheus text exposition format as `/metrics` writes it (issue #22 § Health): one sample
 * a line, `name{label="value",...} value [timestamp]`, `#` lines being HELP/TYPE comments. Pure
 * code (no DOM, no imports), unit-tested.
 */

/** One sample line. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function numberOf(text: string): number {
  if (text === '+Inf' || text === 'Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  return Number(text);
}

/** Reads `{a="x",b="y"}` from `line` at `i` (just after `{`); returns the labels and the index after `}`. */
function labelsAt(line: string, i: number): { labels: Record<string, string>; end: number } | undefined {
  const labels: Record<string, string> = {};
  for (;;) {
    while (line[i] === ' ' || line[i] === ',') i++;
    if (line[i] === '}') return { labels, end: i + 1 };
    const eq = line.indexOf('=', i);
    if (eq < 0 || line[eq + 1] !== '"') return undefined;
    const key = line.slice(i, eq).trim();
    let value = '';
    let j = eq + 2;
    for (; j < line.length && line[j] !== '"'; j++) {
      if (line[j] === '\\') {
        j++;
        value += line[j] === 'n' ? '\n' : line[j];
      } else value += line[j];
    }
    if (j >= line.length) return undefined;
    labels[key] = value;
    i = j + 1;
  }
}

/**
 * Every sample of a `/metrics` body (issue #22 § Health). Comment and blank lines are skipped, as
 * are lines that do not parse (the plots show what can be read).
 */
export function parsePromText(text: string): Sample[] {
  const out: Sample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const brace = line.indexOf('{');
    const space = line.indexOf(' ');
    let name: string;
    let labels: Record<string, string> = {};
    let rest: string;
    if (brace >= 0 && (space < 0 || brace < space)) {
      name = line.slice(0, brace);
      const l = labelsAt(line, brace + 1);
      if (!l) continue;
      labels = l.labels;
      rest = line.slice(l.end);
    } else {
      if (space < 0) continue;
      name = line.slice(0, space);
      rest = line.slice(space);
    }
    const value = numberOf(rest.trim().split(/\s+/)[0] ?? '');
    if (!name || (Number.isNaN(value) && !/NaN/.test(rest))) continue;
    out.push({ name, labels, value });
  }
  return out;
}

/**
 * The sum of the samples named `name` grouped by label `by` (`''` groups all into one key `''`);
 * `keep` filters samples first. issue #22 § Health.
 */
export function sumBy(samples: Sample[], name: string, by: string, keep: (s: Sample) => boolean = () => true): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) {
    if (s.name !== name || !keep(s) || !Number.isFinite(s.value)) continue;
    const key = by ? (s.labels[by] ?? '') : '';
    out.set(key, (out.get(key) ?? 0) + s.value);
  }
  return out;
}

/** The sum of every sample named `name` (0 when there is none). issue #22 § Health. */
export function total(samples: Sample[], name: string, keep?: (s: Sample) => boolean): number {
  return sumBy(samples, name, '', keep).get('') ?? 0;
}
