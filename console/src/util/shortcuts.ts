/**
 * Keyboard shortcuts (issue #22 § How to build it: "keyboard shortcuts for search (`/`) and
 * namespace"), as users of kubectl dashboards expect them. Keys typed into a field are the
 * field's, except Escape, which leaves it.
 */
import { useEffect } from 'preact/hooks';

/** One shortcut: its key (as `KeyboardEvent.key`), what it does, and the text of the help. */
export interface Shortcut {
  key: string;
  help: string;
  run(): void;
}

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/** Focuses (and selects the text of) the element with id `id`, if shown (issue #22 § How to build it: shortcuts). */
export function focusById(id: string): void {
  const el = document.getElementById(id) as HTMLInputElement | null;
  el?.focus();
  if (el && typeof el.select === 'function') el.select();
}

/** Installs `shortcuts` on the document while the caller is mounted (issue #22 § Navigation). */
export function useShortcuts(shortcuts: Shortcut[]): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (typingIn(e.target)) {
        if (e.key === 'Escape') (e.target as HTMLElement).blur();
        return;
      }
      const s = shortcuts.find((x) => x.key === e.key);
      if (!s) return;
      e.preventDefault();
      s.run();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [shortcuts]);
}
