/**
 * The "Who can" tab (issue #22 § Who may): for a verb and this object, the users, groups and
 * service accounts that may do it, like the `who-can` kubectl plugin — candidates computed from
 * the RBAC objects the logged-in user may read (who-can.ts), each confirmed with a
 * SubjectAccessReview. RBAC objects that cannot be read make the list partial, and the tab says so.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../../api/client';
import { loadConfig, vendorGroup } from '../../api/config';
import { ErrorBox } from '../../components/error-box';
import type { ObjectTabProps } from '../object/tabs';
import { type AccessQuery, accessQuery, type BindingObject, type Candidate, candidateLabel, type RbacObjects, reviewSpec, type RoleObject, whoCan } from './who-can';

const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

/** A candidate and what its SubjectAccessReview answered. */
interface Checked {
  candidate: Candidate;
  /** true/false from the review; undefined when the review could not be made. */
  allowed?: boolean;
}

interface Result {
  checked: Checked[];
  /** The RBAC lists that could not be read (kind and the server's reason). */
  unreadable: { what: string; error: ApiError }[];
  /** Why the candidates could not be confirmed (e.g. not allowed to create SubjectAccessReviews). */
  reviewError?: unknown;
}

async function listOf<T>(path: string, what: string, unreadable: Result['unreadable']): Promise<T[]> {
  try {
    return (await api<{ items?: T[] }>(path)).body.items ?? [];
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    unreadable.push({ what, error: e });
    return [];
  }
}

/** Reads the RBAC objects, computes the candidates and reviews each one. issue #22 § Who may. */
async function findWhoCan(q: AccessQuery): Promise<Result> {
  const config = await loadConfig();
  const rbacBase = `/apis/${vendorGroup(config, 'rbac.authorization')}/v1`;
  const reviews = `/apis/${vendorGroup(config, 'authorization')}/v1/subjectaccessreviews`;
  const unreadable: Result['unreadable'] = [];
  const ns = q.namespace ? `/namespaces/${encodeURIComponent(q.namespace)}` : '';
  const [clusterRoles, clusterRoleBindings, roles, roleBindings] = await Promise.all([
    listOf<RoleObject>(`${rbacBase}/clusterroles`, 'cluster roles', unreadable),
    listOf<BindingObject>(`${rbacBase}/clusterrolebindings`, 'cluster role bindings', unreadable),
    q.namespace ? listOf<RoleObject>(`${rbacBase}${ns}/roles`, `roles in ${q.namespace}`, unreadable) : Promise.resolve([]),
    q.namespace ? listOf<BindingObject>(`${rbacBase}${ns}/rolebindings`, `role bindings in ${q.namespace}`, unreadable) : Promise.resolve([]),
  ]);
  const rbac: RbacObjects = { clusterRoles, clusterRoleBindings, roles, roleBindings };
  const candidates = whoCan(rbac, q);
  let reviewError: unknown;
  const checked = await Promise.all(
    candidates.map(async (candidate): Promise<Checked> => {
      try {
        const { body } = await api<{ status?: { allowed?: boolean } }>(reviews, {
          method: 'POST',
          body: { apiVersion: `${vendorGroup(config, 'authorization')}/v1`, kind: 'SubjectAccessReview', spec: reviewSpec(candidate, q) },
        });
        return { candidate, allowed: body.status?.allowed === true };
      } catch (e) {
        reviewError ??= e;
        return { candidate };
      }
    }),
  );
  return { checked, unreadable, reviewError };
}

/** The "Who can" tab (issue #22 § Who may). */
export function WhoCanTab({ target, resource, object }: ObjectTabProps) {
  const [verb, setVerb] = useState('get');
  const [state, setState] = useState<{ verb?: string; result?: Result; error?: unknown; loading: boolean }>({ loading: true });
  const name = String(object.metadata?.name ?? target.name ?? '');
  const namespace = resource.namespaced ? (object.metadata?.namespace ?? target.namespace) : undefined;

  useEffect(() => {
    let live = true;
    setState({ loading: true });
    findWhoCan(accessQuery(verb, resource.group, resource.resource, name, namespace)).then(
      (result) => live && setState({ verb, result, loading: false }),
      (error) => live && setState({ verb, error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [verb, resource.group, resource.resource, name, namespace]);

  const { result } = state;
  const confirmed = result?.checked.filter((c) => c.allowed === true) ?? [];
  const unconfirmed = result?.checked.filter((c) => c.allowed === undefined) ?? [];
  return (
    <div class="who-can">
      <label>
        Who can{' '}
        <select class="who-can-verb" value={verb} onChange={(e) => setVerb((e.target as HTMLSelectElement).value)}>
          {VERBS.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>{' '}
        {resource.resource} {namespace ? `${namespace}/${name}` : name}?
      </label>
      {state.loading && <p class="muted">Reading RBAC objects…</p>}
      {state.error !== undefined && <ErrorBox error={state.error} />}
      {result && result.unreadable.length > 0 && (
        <div class="who-can-partial" role="status">
          {result.unreadable.map((u) => (
            <p key={u.what}>
              {u.error.status === 403 ? `Not allowed to read ${u.what} — the list is partial.` : `Could not read ${u.what} (${u.error.message}) — the list is partial.`}
            </p>
          ))}
        </div>
      )}
      {result?.reviewError !== undefined && (
        <>
          <p>These subjects are bound to matching rules but could not be confirmed with a SubjectAccessReview:</p>
          <ErrorBox error={result.reviewError} />
        </>
      )}
      {result && !state.loading && (
        <table class="who-can-table" data-verb={state.verb}>
          <thead>
            <tr>
              <th>KIND</th>
              <th>NAME</th>
              <th>VIA</th>
            </tr>
          </thead>
          <tbody>
            {[...confirmed, ...unconfirmed].map(({ candidate: c, allowed }) => (
              <tr key={`${c.kind}/${c.namespace ?? ''}/${c.name}`} class={allowed ? 'who-can-confirmed' : 'who-can-unconfirmed'} data-kind={c.kind} data-name={candidateLabel(c)}>
                <td>{c.kind}</td>
                <td>{candidateLabel(c)}</td>
                <td class="who-can-via">
                  {c.via.map((v) => (
                    <div key={v}>{v}</div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result && !state.loading && confirmed.length + unconfirmed.length === 0 && <p class="who-can-none">No subject found.</p>}
    </div>
  );
}
