import { expect } from 'chai';
import { TemplateSet } from '../../../../hack/helm-render/exec.js';
import { parseTemplate, TemplateError } from '../../../../hack/helm-render/parse.js';

/** Renders one template (plus optional helper files) with `data`. */
function render(src: string, data: unknown = {}, helpers: Record<string, string> = {}): string {
  const files = new Map([['t', parseTemplate(src, 't')]]);
  for (const [name, text] of Object.entries(helpers)) files.set(name, parseTemplate(text, name));
  return new TemplateSet(files).render('t', data);
}

describe('hack/helm-render: the Go template subset', () => {
  describe('text, actions and trim markers', () => {
    it('prints fields and trims whitespace on the marked side only', () => {
      expect(render('a: {{ .x }}\nb:  {{- .y -}}  \n c', { x: 1, y: 'two' })).to.equal('a: 1\nb:twoc');
      expect(render('{{ .missing }}|', {})).to.equal('|');
      expect(render('x {{/* a comment */}} y {{- /* trimmed */ -}} z')).to.equal('x  yz');
    });

    it('a field of nil is an error, as in Go', () => {
      expect(() => render('{{ .a.b }}', {})).to.throw(TemplateError, 'template: t: nil pointer evaluating interface {}.b');
    });

    it('string, raw string, number, bool and nil literals; parentheses and pipelines', () => {
      expect(render('{{ "a\\"b" }} {{ `r\\n` }} {{ 3 }} {{ true }} {{ default "d" nil }}')).to.equal('a"b r\\n 3 true d');
      expect(render('{{ .s | upper | printf "<%s>" }} {{ (printf "%s-%d" "n" 2) | quote }}', { s: 'ab' })).to.equal('<AB> "n-2"');
      expect(render('{{ (dict "k" .v).k }}', { v: 'x' })).to.equal('x');
      expect(() => render('{{ (dict "k" .v) .v }}', { v: 'x' })).to.throw(TemplateError, "can't give argument to non-function pipe");
    });
  });

  describe('control structures', () => {
    it('if / else if / else, with Go truth', () => {
      const t = '{{ if .a }}A{{ else if eq .b "x" }}B{{ else }}C{{ end }}';
      expect([render(t, { a: [1] }), render(t, { a: [], b: 'x' }), render(t, { a: 0, b: 'y' })]).to.deep.equal(['A', 'B', 'C']);
    });

    it('range over lists and maps (keys sorted) with $i, $e, and the else branch', () => {
      expect(render('{{ range $i, $e := .l }}{{ $i }}={{ $e }};{{ end }}', { l: ['a', 'b'] })).to.equal('0=a;1=b;');
      expect(render('{{ range $k, $v := .m }}{{ $k }}:{{ $v }} {{ end }}', { m: { z: 1, a: 2 } })).to.equal('a:2 z:1 ');
      expect(render('{{ range .l }}{{ . }}{{ else }}none{{ end }}', { l: [] })).to.equal('none');
      expect(render('{{ range $i := until 3 }}{{ $i }}{{ end }}')).to.equal('012');
    });

    it('with rebinds dot; $ stays the root', () => {
      expect(render('{{ with .o }}{{ .n }}/{{ $.top }}{{ else }}none{{ end }}', { o: { n: 1 }, top: 'T' })).to.equal('1/T');
      expect(render('{{ with .o }}x{{ else }}none{{ end }}', { o: {} })).to.equal('none');
    });

    it('variables: declared, assigned, and out of scope after their end', () => {
      expect(render('{{ $l := list }}{{ range .n }}{{ $l = append $l . }}{{ end }}{{ join "," $l }}', { n: [1, 2] })).to.equal('1,2');
      expect(() => render('{{ if true }}{{ $x := 1 }}{{ end }}{{ $x }}')).to.throw(TemplateError, 'undefined variable: $x');
    });

    it('define, include and template across files, with nindent', () => {
      const helpers = { '_h.tpl': '{{- define "lbl" -}}\na: {{ .a }}\nb: x\n{{- end }}' };
      expect(render('m:\n  {{- include "lbl" . | nindent 2 }}', { a: 1 }, helpers)).to.equal('m:\n  a: 1\n  b: x');
      expect(render('{{ template "lbl" . }}', { a: 2 }, helpers)).to.equal('a: 2\nb: x');
      expect(() => render('{{ include "nope" . }}')).to.throw(TemplateError, 'no template "nope" associated with template');
    });
  });

  describe('functions', () => {
    it('toYaml sorts keys and does not indent lists (as sigs.k8s.io/yaml)', () => {
      expect(render('{{ toYaml .v }}', { v: { b: [1, { y: 2, x: 1 }], a: 's' } })).to.equal('a: s\nb:\n- 1\n- x: 1\n  y: 2');
    });

    it('default, required, quote, trunc, trimSuffix, replace, int, add, kindIs, ternary', () => {
      expect(render('{{ default "d" .e }} {{ default "d" "v" }} {{ quote .n }} {{ trunc 3 "abcdef" }} {{ trimSuffix "-" "ab-" }}', { e: '', n: 5 })).to.equal('d v "5" abc ab');
      expect(render('{{ replace "+" "_" "1+2" }} {{ int "42" }} {{ add 1 2 3 }} {{ kindIs "slice" .l }} {{ ternary "y" "n" false }}', { l: [] })).to.equal('1_2 42 6 true n');
      expect(() => render('{{ required "need x" .x }}', {})).to.throw(TemplateError, 'template: t: error calling required: need x');
      expect(render('{{ print "--a=" 1 }} {{ print 1 2 }}')).to.equal('--a=1 1 2');
    });

    it('unknown functions and prototype names are not functions', () => {
      expect(() => render('{{ nosuch 1 }}')).to.throw(TemplateError, 'function "nosuch" not defined');
      expect(() => render('{{ constructor }}')).to.throw(TemplateError, 'function "constructor" not defined');
      expect(render('{{ .constructor }}', {})).to.equal('');
    });
  });

  describe('parse errors: syntax outside the subset fails loudly', () => {
    it('names the file and line', () => {
      expect(() => parseTemplate('a\n{{ if .x }}', 'f.yaml')).to.throw(TemplateError, 'template: f.yaml:2: unexpected EOF: if without end');
      expect(() => parseTemplate('{{ block "x" . }}{{ end }}', 'f.yaml')).to.throw(TemplateError, '"block" is outside the supported template subset');
      expect(() => parseTemplate('{{ .x ', 'f.yaml')).to.throw(TemplateError, 'template: f.yaml:1: unclosed action');
      expect(() => parseTemplate('{{ end }}', 'f.yaml')).to.throw(TemplateError, 'unexpected {{end}}');
    });
  });
});
