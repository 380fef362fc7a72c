"""`kubectl auth whoami` through the official Python client (Debian python3-kubernetes, which
predates a SelfSubjectReview model): its ApiClient posts the request kubectl sends to the
upstream alias path with the kubeconfig's credentials and prints the answer as JSON.
Usage: whoami.py <kubeconfig>"""
import json
import sys

from kubernetes import client, config

config.load_kube_config(config_file=sys.argv[1])
api = client.ApiClient()
body = {"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1", "metadata": {"creationTimestamp": None}, "status": {"userInfo": {}}}
answer, status, _ = api.call_api(
    "/apis/authentication.k8s.io/v1/selfsubjectreviews",
    "POST",
    body=body,
    header_params={"Content-Type": "application/json", "Accept": "application/json"},
    auth_settings=["BearerToken"],
    response_type="object",
    _return_http_data_only=False,
)
print(json.dumps({"status": status, "review": answer}))
