import { expect } from 'chai';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatStream, loadChart, mergeValues, parseSet, renderChart } from '../../../../hack/helm-render/chart.js';

describe('hack/helm-render: charts', () => {
  describe('values', () => {
    it('overrides deep-merge; a null override deletes; lists replace', () => {
      expect(mergeValues({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3] }, d: null })).to.deep.equal({ a: { b: 1, c: [3] } });
    });

    it('--set parses dotted keys and types booleans, null and integers', () => {
      expect(parseSet('a.b=3,a.c=true,d=x,e=null,f=1.5')).to.deep.equal({ a: { b: 3, c: true }, d: 'x', e: null, f: '1.5' });
      expect(() => parseSet('novalue')).to.throw('--set novalue: key=value expected');
    });
  });

  describe('rendering a chart directory', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'helm-render-'));
      mkdirSync(path.join(dir, 'templates'));
      writeFileSync(path.join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: c\nversion: 1.2.3\nappVersion: "9"\n');
      writeFileSync(path.join(dir, 'values.yaml'), 'n: 2\n');
      writeFileSync(path.join(dir, 'templates', '_h.tpl'), '{{- define "nm" }}{{ .Release.Name }}-{{ .Chart.Name }}{{ end }}');
      writeFileSync(path.join(dir, 'templates', 'a.yaml'), 'kind: Deployment\nmetadata:\n  name: {{ include "nm" . }}\nspec:\n  replicas: {{ .Values.n }}\n---\n---\nkind: Service\nmetadata:\n  namespace: {{ .Release.Namespace }}\n');
      writeFileSync(path.join(dir, 'templates', 'b.yaml'), '{{- if .Values.on }}\nkind: ServiceAccount\n{{- end }}\n');
      writeFileSync(path.join(dir, 'templates', 'NOTES.txt'), '{{ .Chart.Version }} {{ .Chart.AppVersion }}');
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('renders every non-partial file, drops empty documents, orders kinds as Helm installs them', () => {
      const r = renderChart(loadChart(dir), { name: 'r', namespace: 'ns', values: { on: true } });
      expect(r.manifests.map((m) => [m.kind, m.source])).to.deep.equal([
        ['ServiceAccount', 'c/templates/b.yaml'],
        ['Service', 'c/templates/a.yaml'],
        ['Deployment', 'c/templates/a.yaml'],
      ]);
      expect(r.notes).to.equal('1.2.3 9');
      expect(formatStream(r)).to.equal(
        '---\n# Source: c/templates/b.yaml\nkind: ServiceAccount\n' +
          '---\n# Source: c/templates/a.yaml\nkind: Service\nmetadata:\n  namespace: ns\n' +
          '---\n# Source: c/templates/a.yaml\nkind: Deployment\nmetadata:\n  name: r-c\nspec:\n  replicas: 2\n',
      );
    });

    it('refuses a Chart.yaml that is not apiVersion v2', () => {
      writeFileSync(path.join(dir, 'Chart.yaml'), 'apiVersion: v1\nname: c\nversion: 1\n');
      expect(() => loadChart(dir)).to.throw(`${dir}/Chart.yaml: apiVersion v2, name and version are required`);
    });
  });
});
