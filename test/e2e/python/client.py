"""Drives the server with the official Python client (Debian python3-kubernetes) and prints one
JSON document of observations for the e2e test to assert on. Usage: client.py <kubeconfig> <ns>"""
import json
import sys

from kubernetes import client, config, watch

kubeconfig, ns = sys.argv[1], sys.argv[2]
config.load_kube_config(config_file=kubeconfig)
core = client.CoreV1Api()
out = {}

core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
out["namespaces"] = sorted(n.metadata.name for n in core.list_namespace().items)

cm = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py", labels={"via": "python"}), data={"a": "1"})
created = core.create_namespaced_config_map(ns, cm)
out["created_rv"] = created.metadata.resource_version
got = core.read_namespaced_config_map("py", ns)
out["read_data"] = got.data

patched = core.patch_namespaced_config_map("py", ns, {"data": {"b": "2"}})
out["patched_data"] = patched.data

listed = core.list_namespaced_config_map(ns, label_selector="via=python", limit=10)
out["listed"] = [i.metadata.name for i in listed.items]

w = watch.Watch()
events = []
for ev in w.stream(core.list_namespaced_config_map, ns, resource_version=created.metadata.resource_version, timeout_seconds=5):
    events.append([ev["type"], ev["object"].metadata.name, ev["object"].data])
    if len(events) == 1:
        w.stop()
out["watch_after_create"] = events

try:
    core.read_namespaced_config_map("absent", ns)
except client.exceptions.ApiException as e:
    body = json.loads(e.body)
    out["not_found"] = {"status": e.status, "reason": body["reason"], "message": body["message"]}

status = core.delete_namespaced_config_map("py", ns)
out["delete_status"] = status.status
print(json.dumps(out))
