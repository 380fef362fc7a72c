/** The keyboard shortcuts' help (issue #22 § How to build it: shortcuts for search and namespace), shown by `?`. */
import type { Shortcut } from '../../util/shortcuts';

/** The list of `shortcuts` with their keys, and how to close it (issue #22 § How to build it: shortcuts). */
export function ShortcutHelp({ shortcuts, close }: { shortcuts: Shortcut[]; close: () => void }) {
  return (
    <div class="nav-help" role="dialog" aria-label="Keyboard shortcuts">
      <h3>Keyboard shortcuts</h3>
      <dl>
        {shortcuts.map((s) => (
          <>
            <dt><kbd>{s.key}</kbd></dt>
            <dd>{s.help}</dd>
          </>
        ))}
        <dt><kbd>Esc</kbd></dt>
        <dd>Leave the field being typed in</dd>
      </dl>
      <button type="button" onClick={close}>Close</button>
    </div>
  );
}
