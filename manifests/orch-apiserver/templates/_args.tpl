{{/*
The API server's command line, one YAML list item per flag. Paths point into the mounted PKI
Secrets and ConfigMaps; $(POD_IP) is expanded by the kubelet from the container's env.
*/}}
{{- define "apiserver.args" -}}
{{- $a := .Values.apiserver }}
{{- $pki := .Values.pki.mountPath }}
{{- $fullname := include "apiserver.fullname" . -}}
- {{ print "--secure-port=" (int $a.securePort) | quote }}
- --bind-address=0.0.0.0
- --advertise-address=$(POD_IP)
- --data-dir=/var/lib/apiserver
- {{ print "--v=" (int $a.verbosity) | quote }}
- {{ print "--workers=" (int $a.workers) | quote }}
- {{ print "--etcd-servers=" (include "apiserver.etcdServers" .) | quote }}
- {{ print "--etcd-prefix=" $a.etcdPrefix | quote }}
- {{ print "--etcd-cafile=" $pki "/etcd/ca.crt" | quote }}
- {{ print "--etcd-certfile=" $pki "/etcd/apiserver-etcd-client.crt" | quote }}
- {{ print "--etcd-keyfile=" $pki "/etcd/apiserver-etcd-client.key" | quote }}
- {{ print "--tls-cert-file=" $pki "/apiserver.crt" | quote }}
- {{ print "--tls-private-key-file=" $pki "/apiserver.key" | quote }}
- {{ print "--client-ca-file=" $pki "/ca.crt" | quote }}
- {{ print "--service-account-key-file=" $pki "/sa.pub" | quote }}
- {{ print "--service-account-signing-key-file=" $pki "/sa.key" | quote }}
- {{ print "--service-account-issuer=" (default (printf "https://%s.%s" $fullname (include "apiserver.svcDomain" .)) $a.serviceAccountIssuer) | quote }}
{{- with $a.apiAudiences }}
- {{ print "--api-audiences=" (join "," .) | quote }}
{{- end }}
- {{ print "--shutdown-delay-duration=" (int $a.shutdown.shutdownDelaySeconds) "s" | quote }}
- {{ print "--anonymous-auth=" .Values.authentication.anonymousAuth | quote }}
{{- with .Values.authentication.oidc }}
{{- if .enabled }}
- {{ print "--oidc-issuer-url=" (required "authentication.oidc.issuerURL is required when OIDC is enabled" .issuerURL) | quote }}
- {{ print "--oidc-client-id=" (required "authentication.oidc.clientID is required when OIDC is enabled" .clientID) | quote }}
- {{ print "--oidc-username-claim=" .usernameClaim | quote }}
{{- with .usernamePrefix }}
- {{ print "--oidc-username-prefix=" . | quote }}
{{- end }}
{{- with .groupsClaim }}
- {{ print "--oidc-groups-claim=" . | quote }}
{{- end }}
{{- with .groupsPrefix }}
- {{ print "--oidc-groups-prefix=" . | quote }}
{{- end }}
{{- range $claim, $value := .requiredClaims }}
- {{ print "--oidc-required-claim=" $claim "=" $value | quote }}
{{- end }}
{{- with .signingAlgs }}
- {{ print "--oidc-signing-algs=" (join "," .) | quote }}
{{- end }}
{{- if .caPem }}
- --oidc-ca-file=/etc/apiserver/config/oidc-ca.crt
{{- end }}
{{- end }}
{{- end }}
- {{ print "--authorization-mode=" (join "," .Values.authorization.modes) | quote }}
{{- with .Values.admission.enablePlugins }}
- {{ print "--enable-admission-plugins=" (join "," .) | quote }}
{{- end }}
{{- with .Values.admission.disablePlugins }}
- {{ print "--disable-admission-plugins=" (join "," .) | quote }}
{{- end }}
{{- if .Values.admission.configuration }}
- --admission-control-config-file=/etc/apiserver/config/admission.yaml
{{- end }}
{{- if .Values.audit.enabled }}
- --audit-policy-file=/etc/apiserver/audit/policy.yaml
- {{ print "--audit-log-path=" .Values.audit.log.path | quote }}
- {{ print "--audit-log-format=" .Values.audit.log.format | quote }}
- {{ print "--audit-log-maxage=" (int .Values.audit.log.maxAge) | quote }}
- {{ print "--audit-log-maxbackup=" (int .Values.audit.log.maxBackup) | quote }}
- {{ print "--audit-log-maxsize=" (int .Values.audit.log.maxSize) | quote }}
{{- end }}
{{- with .Values.leaderElection }}
- {{ print "--leader-elect=" .enabled | quote }}
{{- if .enabled }}
- {{ print "--leader-elect-lease-duration=" .leaseDuration | quote }}
- {{ print "--leader-elect-renew-deadline=" .renewDeadline | quote }}
- {{ print "--leader-elect-retry-period=" .retryPeriod | quote }}
{{- end }}
{{- end }}
- {{ print "--enable-priority-and-fairness=" .Values.flowControl.enabled | quote }}
- {{ print "--max-requests-inflight=" (int .Values.flowControl.maxRequestsInflight) | quote }}
- {{ print "--max-mutating-requests-inflight=" (int .Values.flowControl.maxMutatingRequestsInflight) | quote }}
{{- range $flag, $value := $a.extraArgs }}
{{- if kindIs "slice" $value }}
{{- range $value }}
- {{ printf "--%s=%v" $flag . | quote }}
{{- end }}
{{- else }}
- {{ printf "--%s=%v" $flag $value | quote }}
{{- end }}
{{- end }}
{{- end }}
