/** A line diff shown as text (issue #22 § Edit safely): `+`/`-` lines marked by class, never rendered as HTML. */
import type { DiffLine } from './apply-yaml';

const CLASS = { '+': 'diff-add', '-': 'diff-del', ' ': 'diff-same' } as const;

/** The lines of `diff`, each prefixed with its `+`, `-` or space. issue #22 § Edit safely. */
export function DiffView({ diff }: { diff: DiffLine[] }) {
  return (
    <pre class="diff">
      {diff.map((l, i) => (
        <div key={i} class={`diff-line ${CLASS[l.op]}`}>
          {l.op} {l.text}
        </div>
      ))}
    </pre>
  );
}
