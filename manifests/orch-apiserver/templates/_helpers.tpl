{{/*
Names. The chart's name (Chart.yaml, or .Values.nameOverride) and the release make every object
name; DNS labels are at most 63 characters.
*/}}
{{- define "apiserver.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "apiserver.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "apiserver.etcdName" -}}
{{- printf "%s-etcd" (include "apiserver.fullname" .) | trunc 58 | trimSuffix "-" }}
{{- end }}

{{- define "apiserver.etcdPeerService" -}}
{{- printf "%s-peer" (include "apiserver.etcdName" .) }}
{{- end }}

{{- define "apiserver.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels every object carries. */}}
{{- define "apiserver.labels" -}}
helm.sh/chart: {{ include "apiserver.chart" . }}
app.kubernetes.io/name: {{ include "apiserver.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector of the API server pods (a Deployment's selector never changes: keep it small). */}}
{{- define "apiserver.selectorLabels" -}}
app.kubernetes.io/name: {{ include "apiserver.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: apiserver
{{- end }}

{{/* Selector of the etcd members. */}}
{{- define "apiserver.etcdSelectorLabels" -}}
app.kubernetes.io/name: {{ include "apiserver.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: etcd
{{- end }}

{{- define "apiserver.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "apiserver.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "apiserver.pkiSecret" -}}
{{- default (printf "%s-pki" (include "apiserver.fullname" .)) .Values.pki.secretName }}
{{- end }}

{{- define "apiserver.etcdPkiSecret" -}}
{{- default (printf "%s-pki" (include "apiserver.etcdName" .)) .Values.etcd.pki.secretName }}
{{- end }}

{{- define "apiserver.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* The in-cluster DNS suffix of the release namespace: <ns>.svc.<cluster domain>. */}}
{{- define "apiserver.svcDomain" -}}
{{- printf "%s.svc.%s" .Release.Namespace .Values.clusterDomain }}
{{- end }}

{{/* The etcd client URLs the API servers use: every member, or .Values.etcd.external.servers. */}}
{{- define "apiserver.etcdServers" -}}
{{- if .Values.etcd.enabled }}
{{- $etcd := include "apiserver.etcdName" . }}
{{- $peer := include "apiserver.etcdPeerService" . }}
{{- $domain := include "apiserver.svcDomain" . }}
{{- $port := .Values.etcd.clientPort }}
{{- $urls := list }}
{{- range $i := until (int .Values.etcd.replicas) }}
{{- $urls = append $urls (printf "https://%s-%d.%s.%s:%d" $etcd $i $peer $domain (int $port)) }}
{{- end }}
{{- join "," $urls }}
{{- else }}
{{- required "etcd.external.servers is required when etcd.enabled is false" .Values.etcd.external.servers | join "," }}
{{- end }}
{{- end }}

{{/* --initial-cluster of the etcd members: name=https://<name>.<peer service>.<domain>:<peer port>,… */}}
{{- define "apiserver.etcdInitialCluster" -}}
{{- $etcd := include "apiserver.etcdName" . }}
{{- $peer := include "apiserver.etcdPeerService" . }}
{{- $domain := include "apiserver.svcDomain" . }}
{{- $port := .Values.etcd.peerPort }}
{{- $members := list }}
{{- range $i := until (int .Values.etcd.replicas) }}
{{- $members = append $members (printf "%s-%d=https://%s-%d.%s.%s:%d" $etcd $i $etcd $i $peer $domain (int $port)) }}
{{- end }}
{{- join "," $members }}
{{- end }}

{{/* The RBAC API version: rbac.authorization.<domain>/v1 (.Values.apiGroupDomain). */}}
{{- define "apiserver.rbacApiVersion" -}}
{{- printf "rbac.authorization.%s/v1" .Values.apiGroupDomain }}
{{- end }}
