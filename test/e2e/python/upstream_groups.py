"""Drives the server's upstream group aliases with the official Python client (Debian
python3-kubernetes): through RbacAuthorizationV1Api and CoordinationV1Api (rbac.authorization.k8s.io,
coordination.k8s.io) it creates, lists and watches a Role and a Lease, and prints one JSON
document of observations for the e2e test to assert on. Usage: upstream_groups.py <kubeconfig> <ns>"""
import json
import sys

from kubernetes import client, config, watch

kubeconfig, ns = sys.argv[1], sys.argv[2]
config.load_kube_config(config_file=kubeconfig)
rbac = client.RbacAuthorizationV1Api()
coordination = client.CoordinationV1Api()


def create_list_watch(list_fn, create_fn, body):
    """Lists (empty), creates `body`, lists again and watches from the first list's
    resourceVersion until the first event: the creation."""
    before = list_fn(ns)
    created = create_fn(ns, body)
    after = list_fn(ns)
    w = watch.Watch()
    events = []
    for ev in w.stream(list_fn, ns, resource_version=before.metadata.resource_version, timeout_seconds=10):
        raw = ev["raw_object"]
        events.append([ev["type"], raw["apiVersion"], raw["kind"], raw["metadata"]["name"]])
        w.stop()
    return {
        "listed_before": [i.metadata.name for i in before.items],
        "created": [created.api_version, created.kind, created.metadata.name],
        "listed": [after.api_version, after.kind, [i.metadata.name for i in after.items]],
        "watched": events,
    }


out = {
    "role": create_list_watch(
        rbac.list_namespaced_role,
        rbac.create_namespaced_role,
        client.V1Role(
            metadata=client.V1ObjectMeta(name="py-role"),
            rules=[client.V1PolicyRule(api_groups=[""], resources=["pods"], verbs=["get"])],
        ),
    ),
    "lease": create_list_watch(
        coordination.list_namespaced_lease,
        coordination.create_namespaced_lease,
        client.V1Lease(
            metadata=client.V1ObjectMeta(name="py-lease"),
            spec=client.V1LeaseSpec(holder_identity="python", lease_duration_seconds=15),
        ),
    ),
}
out["role_rules"] = client.ApiClient().sanitize_for_serialization(rbac.read_namespaced_role("py-role", ns).rules)
out["lease_holder"] = coordination.read_namespaced_lease("py-lease", ns).spec.holder_identity
print(json.dumps(out))
