/**
 * The access page (issue #22 § Who may), `/console/access?namespace=NS`: what the logged-in user
 * may do in a namespace (the one chosen last, `default` at first), from a SelfSubjectRulesReview — the server's
 * own answer for the user's credentials, as `kubectl auth can-i --list` shows it.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import { loadConfig, vendorGroup } from '../api/config';
import { ErrorBox } from '../components/error-box';
import { navigate } from '../router';
import { rememberedNamespace, rememberNamespace } from '../util/namespace';
import { useWhoAmI } from '../util/whoami';
import { type RulesStatus, RulesTable } from './access/rules-table';

/** The SelfSubjectRulesReview status for `namespace`. issue #22 § Who may. */
async function rulesIn(namespace: string): Promise<RulesStatus> {
  const config = await loadConfig();
  const group = vendorGroup(config, 'authorization');
  const { body } = await api<{ status?: RulesStatus }>(`/apis/${group}/v1/selfsubjectrulesreviews`, {
    method: 'POST',
    body: { apiVersion: `${group}/v1`, kind: 'SelfSubjectRulesReview', spec: { namespace } },
  });
  return body.status ?? {};
}

/** Namespace names for the selector's suggestions; none when the user may not list namespaces. */
async function namespaceNames(): Promise<string[]> {
  try {
    const { body } = await api<{ items?: { metadata: { name: string } }[] }>('/api/v1/namespaces');
    return (body.items ?? []).map((n) => n.metadata.name);
  } catch {
    return [];
  }
}

/** The access page (issue #22 § Who may). */
export function AccessView(_props: Record<string, unknown>) {
  const namespace = new URLSearchParams(location.search).get('namespace') || rememberedNamespace() || 'default';
  const [typed, setTyped] = useState(namespace);
  const [names, setNames] = useState<string[]>([]);
  const [state, setState] = useState<{ status?: RulesStatus; error?: unknown }>({});
  const { user } = useWhoAmI();

  useEffect(() => {
    let live = true;
    rememberNamespace(namespace);
    rulesIn(namespace).then(
      (status) => live && setState({ status }),
      (error) => live && setState({ error }),
    );
    void namespaceNames().then((n) => live && setNames(n));
    return () => {
      live = false;
    };
  }, [namespace]);

  const choose = (ns: string) => {
    if (ns && ns !== namespace) navigate(`/access?namespace=${encodeURIComponent(ns)}`);
  };

  return (
    <section class="access-page">
      <h1>What {user?.username ? <span class="access-user">{user.username}</span> : 'you'} may do</h1>
      <form
        class="access-namespace"
        onSubmit={(e) => {
          e.preventDefault();
          choose(typed.trim());
        }}
      >
        <label>
          Namespace{' '}
          <input
            id="access-namespace"
            list="access-namespaces"
            value={typed}
            onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
            onChange={(e) => choose((e.target as HTMLInputElement).value.trim())}
          />
        </label>
        <datalist id="access-namespaces">
          {names.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>{' '}
        <button type="submit">Show</button>
      </form>
      {state.error !== undefined && <ErrorBox error={state.error} />}
      {state.status && <RulesTable status={state.status} />}
    </section>
  );
}
