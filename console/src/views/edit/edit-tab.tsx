/**
 * The Edit tab (issue #22 § Edit safely): the object's YAML to edit; Preview sends it as a
 * server-side apply with `dryRun=All` and `fieldValidation=Strict` and shows the diff from the
 * current object to the server's answer and every warning; Save sends the same apply for real
 * under the console's field manager. A 409 apply conflict is shown as a conflict naming the
 * manager that owns each field, with the choice to force (take the fields over).
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../../api/client';
import { loadConfig } from '../../api/config';
import { ErrorBox } from '../../components/error-box';
import type { ObjectTabProps } from '../object/tabs';
import { changes, comparableYaml, type Conflict, conflictsOf, type DiffLine, editableYaml, lineDiff } from './apply-yaml';
import { DiffView } from './diff-view';

type Mode = 'preview' | 'save';

/** What the last preview or save answered. */
interface Outcome {
  mode: Mode;
  warnings: string[];
  /** Preview: the diff from the current object to the dry-run result. */
  diff?: DiffLine[];
  /** Save: the resourceVersion written. */
  resourceVersion?: string;
  error?: unknown;
  conflicts?: Conflict[];
  forced?: boolean;
}

/** The Edit tab (issue #22 § Edit safely). */
export function EditTab({ target, object, reload }: ObjectTabProps) {
  const [base, setBase] = useState(() => editableYaml(object));
  const [text, setText] = useState(base);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const [manager, setManager] = useState('');

  useEffect(() => {
    loadConfig().then((c) => setManager(c.fieldManager), (e) => setOutcome({ mode: 'preview', warnings: [], error: e }));
  }, []);

  // The object changed on the server (a watch, a save): follow it unless the text was edited.
  const current = editableYaml(object);
  const dirty = text !== base;
  useEffect(() => {
    if (!dirty) {
      setBase(current);
      setText(current);
    }
  }, [current]);

  const run = async (mode: Mode, force = false) => {
    setBusy(true);
    try {
      const res = await api<Record<string, any>>(target.path, {
        method: 'PATCH',
        query: {
          fieldManager: manager,
          fieldValidation: 'Strict',
          ...(mode === 'preview' && { dryRun: 'All' }),
          ...(force && { force: 'true' }),
        },
        body: text,
        contentType: 'application/apply-patch+yaml',
      });
      if (mode === 'preview') {
        setOutcome({ mode, warnings: res.warnings, diff: lineDiff(comparableYaml(object), comparableYaml(res.body)), forced: force });
      } else {
        const saved = editableYaml(res.body);
        setBase(saved);
        setText(saved);
        setOutcome({ mode, warnings: res.warnings, resourceVersion: res.body.metadata?.resourceVersion, forced: force });
        reload();
      }
    } catch (e) {
      const conflicts = e instanceof ApiError && e.status === 409 ? conflictsOf(e.details) : [];
      setOutcome({ mode, warnings: [], error: e, conflicts });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="edit-tab">
      <textarea
        class="edit-yaml"
        spellcheck={false}
        rows={Math.min(40, Math.max(12, text.split('\n').length + 2))}
        value={text}
        onInput={(e) => {
          setText((e.target as HTMLTextAreaElement).value);
          setOutcome(undefined);
        }}
      />
      {dirty && current !== base && <p class="edit-stale">The object changed on the server since this text was loaded.</p>}
      <div class="edit-actions">
        <button type="button" class="edit-preview" disabled={busy || !manager} onClick={() => void run('preview')}>
          Preview (dry run)
        </button>
        <button type="button" class="edit-save" disabled={busy || !manager} onClick={() => void run('save')}>
          Save (apply as {manager || '…'})
        </button>
        <button
          type="button"
          class="edit-reset"
          disabled={busy || !dirty}
          onClick={() => {
            setBase(current);
            setText(current);
            setOutcome(undefined);
          }}
        >
          Reset
        </button>
      </div>
      {outcome && <OutcomeView outcome={outcome} busy={busy} onForce={() => void run(outcome.mode, true)} />}
    </div>
  );
}

function OutcomeView({ outcome, busy, onForce }: { outcome: Outcome; busy: boolean; onForce(): void }) {
  const { mode, warnings, diff, error, conflicts } = outcome;
  return (
    <div class={`edit-outcome edit-${mode}`}>
      {warnings.length > 0 && (
        <ul class="edit-warnings" aria-label="warnings">
          {warnings.map((w, i) => (
            <li key={i} class="warning">
              Warning: {w}
            </li>
          ))}
        </ul>
      )}
      {conflicts && conflicts.length > 0 ? (
        <div class="error edit-conflict" role="alert">
          <strong>Conflict.</strong> {mode === 'preview' ? 'Applying would take' : 'The apply would take'} fields owned by another manager:
          <ul>
            {conflicts.map((c, i) => (
              <li key={i}>
                <code>{c.field}</code> is owned by <strong class="conflict-manager">{c.manager || '(unnamed manager)'}</strong>
              </li>
            ))}
          </ul>
          <button type="button" class="edit-force" disabled={busy} onClick={onForce}>
            {mode === 'preview' ? 'Preview with force' : 'Force: take these fields over'}
          </button>
        </div>
      ) : (
        error !== undefined && <ErrorBox error={error} />
      )}
      {diff && (changes(diff) ? <DiffView diff={diff} /> : <p class="edit-nochange">The apply would change nothing.</p>)}
      {mode === 'save' && error === undefined && <p class="edit-saved">Saved{outcome.forced ? ' (forced)' : ''}: resourceVersion {outcome.resourceVersion}.</p>}
      {mode === 'preview' && error === undefined && <p class="edit-dryrun-note">Dry run: nothing was written.</p>}
    </div>
  );
}
