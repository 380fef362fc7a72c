/**
 * The rules of a SelfSubjectRulesReview as tables (issue #22 § Who may): resource rules (verbs,
 * API groups, resources, resource names) and non-resource rules (verbs, URLs), with
 * `incomplete` and `evaluationError` shown when the server sets them.
 */

/** `status` of a SelfSubjectRulesReview. */
export interface RulesStatus {
  resourceRules?: { verbs?: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }[];
  nonResourceRules?: { verbs?: string[]; nonResourceURLs?: string[] }[];
  incomplete?: boolean;
  evaluationError?: string;
}

const list = (v: string[] | undefined, empty = '') => (v && v.length ? v.map((x) => (x === '' ? '""' : x)).join(', ') : empty);

/** The review's rules (issue #22 § Who may); the core group shows as `""`, as kubectl prints it. */
export function RulesTable({ status }: { status: RulesStatus }) {
  const resourceRules = status.resourceRules ?? [];
  const nonResourceRules = status.nonResourceRules ?? [];
  return (
    <div class="access-rules">
      {status.incomplete && (
        <div class="access-incomplete" role="status">
          The list is incomplete: the server's authorizer could not list every rule (it may allow more than shown).
        </div>
      )}
      {status.evaluationError && <div class="error access-evaluation-error">Evaluation error: {status.evaluationError}</div>}
      <h2>Resource rules</h2>
      {resourceRules.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <table class="access-resource-rules">
          <thead>
            <tr>
              <th>RESOURCES</th>
              <th>API GROUPS</th>
              <th>RESOURCE NAMES</th>
              <th>VERBS</th>
            </tr>
          </thead>
          <tbody>
            {resourceRules.map((r, i) => (
              <tr key={i}>
                <td>{list(r.resources)}</td>
                <td>{list(r.apiGroups)}</td>
                <td>{list(r.resourceNames, '(any)')}</td>
                <td>{list(r.verbs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Non-resource rules</h2>
      {nonResourceRules.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <table class="access-nonresource-rules">
          <thead>
            <tr>
              <th>NON-RESOURCE URLS</th>
              <th>VERBS</th>
            </tr>
          </thead>
          <tbody>
            {nonResourceRules.map((r, i) => (
              <tr key={i}>
                <td>{list(r.nonResourceURLs)}</td>
                <td>{list(r.verbs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
