"""Reviews bearer tokens with the official Python client (Debian python3-kubernetes):
AuthenticationV1Api().create_token_review against the upstream alias group authentication.k8s.io,
for a static token, an unknown token and a static token reviewed for a foreign audience; an empty
token's 400. Prints one JSON document of observations for the e2e test to assert on.
Usage: token_review.py <kubeconfig> <valid token>"""
import json
import sys

from kubernetes import client, config

kubeconfig, token = sys.argv[1], sys.argv[2]
config.load_kube_config(config_file=kubeconfig)
authn = client.AuthenticationV1Api()


def review(spec):
    r = authn.create_token_review(client.V1TokenReview(spec=spec))
    s = r.status
    user = s.user
    return {
        "api_version": r.api_version,
        "kind": r.kind,
        "authenticated": s.authenticated,
        "user": None if user is None else {"username": user.username, "uid": user.uid, "groups": user.groups, "extra": user.extra},
        "audiences": s.audiences,
        "error": s.error,
    }


out = {
    "valid": review(client.V1TokenReviewSpec(token=token)),
    "unknown": review(client.V1TokenReviewSpec(token="not-a-token")),
    "foreign_audience": review(client.V1TokenReviewSpec(token=token, audiences=["vault"])),
}
try:
    authn.create_token_review(client.V1TokenReview(spec=client.V1TokenReviewSpec(token="")))
except client.exceptions.ApiException as e:
    body = json.loads(e.body)
    out["empty"] = {"status": e.status, "reason": body["reason"], "message": body["message"]}
print(json.dumps(out))
