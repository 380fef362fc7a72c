/**
 * A list as kubectl prints it (issue #22 § Lists are live): the server's Table columns of
 * priority 0 (all with "wide"), headers in capitals, a NAMESPACE column first across
 * namespaces, Name cells linking to the object's page, AGE counting from creationTimestamp.
 * Every cell is text.
 */
import { apiPath } from '../../router';
import { ageOf } from '../../util/age';
import { Link } from '../../util/link';
import { useNow } from '../../util/now';
import type { ColumnDefinition, TableRow } from './rows';
import { rowKey } from './rows';

/** Which resource the rows are of, to link each Name to its object. */
export interface RowTarget {
  group: string;
  version: string;
  resource: string;
}

/** A cell as kubectl prints it: `<none>` for a missing value, objects as JSON. */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '<none>';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

const isAge = (c: ColumnDefinition) => c.name.toLowerCase() === 'age';

/** The rows as a table (issue #22 § Lists are live); `namespaceColumn` adds NAMESPACE first. */
export function ListTable(props: { columns: ColumnDefinition[]; rows: TableRow[]; target: RowTarget; namespaceColumn: boolean; wide: boolean }) {
  const { columns, rows, target, namespaceColumn, wide } = props;
  const now = useNow();
  const shown = columns.map((c, i) => ({ c, i })).filter(({ c }) => wide || !c.priority);
  return (
    <table class="list-table">
      <thead>
        <tr>
          {namespaceColumn && <th title="The object's namespace">NAMESPACE</th>}
          {shown.map(({ c }) => (
            <th key={c.name} title={c.description}>{c.name.toUpperCase()}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const meta = row.object?.metadata ?? {};
          return (
            <tr key={rowKey(row)} data-name={meta.name} data-namespace={meta.namespace}>
              {namespaceColumn && <td>{meta.namespace ?? ''}</td>}
              {shown.map(({ c, i }) => {
                const v = row.cells[i];
                if (c.format === 'name' && meta.name) {
                  return (
                    <td key={c.name}>
                      <Link to={apiPath({ ...target, namespace: meta.namespace, name: meta.name })}>{cellText(v)}</Link>
                    </td>
                  );
                }
                const text = isAge(c) && meta.creationTimestamp ? ageOf(meta.creationTimestamp, now) ?? cellText(v) : cellText(v);
                return <td key={c.name}>{text}</td>;
              })}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
