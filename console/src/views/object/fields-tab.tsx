/**
 * The Fields tab (issue #22 § One object, the field-ownership view): the object's YAML with each
 * field line and list item marked by the managers that own it (from `metadata.managedFields`), and
 * a legend naming each manager, its operation (Apply or Update) and time. No anchor shows this.
 */
import { ownedLines, managersOf } from './ownership';
import type { ObjectTabProps } from './tabs';

/** Number of distinct manager colours in the stylesheet (`owner-0` … `owner-7`). */
const COLOURS = 8;

/** issue #22 § One object: the field-ownership view. */
export function FieldsTab({ object }: ObjectTabProps) {
  const managers = managersOf(object);
  const lines = ownedLines(object, managers);
  return (
    <div class="fields-view">
      {managers.length === 0 ? (
        <p class="muted">No managedFields: no manager owns any field of this object.</p>
      ) : (
        <table class="owner-legend">
          <thead>
            <tr><th>MANAGER</th><th>OPERATION</th><th>SUBRESOURCE</th><th>TIME</th></tr>
          </thead>
          <tbody>
            {managers.map((m, i) => (
              <tr key={i} class={`owner-${i % COLOURS}`} data-manager={m.manager}>
                <td><span class="owner-swatch" />{m.manager}</td>
                <td>{m.operation}</td>
                <td>{m.subresource}</td>
                <td>{m.time}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <pre class="owned-yaml">
        {lines.map((l, i) => {
          const first = l.owners[0];
          return (
            <div key={i} class={first === undefined ? 'owned-line' : `owned-line owned owner-${first % COLOURS}`} data-path={l.path || undefined}>
              <span class="owned-text">{l.text}</span>
              {l.owners.length > 0 && (
                <span class="owned-by" title={l.owners.map((o) => `${managers[o]!.manager} (${managers[o]!.operation} ${managers[o]!.time})`).join('\n')}>
                  {l.owners.map((o) => `${managers[o]!.manager} ${managers[o]!.operation} ${managers[o]!.time.slice(11, 19)}`).join(', ')}
                </span>
              )}
            </div>
          );
        })}
      </pre>
    </div>
  );
}
