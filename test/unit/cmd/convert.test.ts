/**
 * `orch-apiserver convert` command layer (lib/cmd/convert.ts): inputs (files, multi-document
 * YAML, JSON, directories, standard input, Lists), the single-object versus List output rule of
 * upstream's `kubectl convert`, output formats, and upstream's error lines.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parse as parseYAML } from 'yaml';
import { runConvert, splitDocuments } from '../../../lib/cmd/convert.js';

interface Run {
  code: number;
  out: string;
  err: string;
}

async function convert(args: string[], stdin = ''): Promise<Run> {
  let out = '';
  let err = '';
  const code = await runConvert(args, { readStdin: async () => stdin, out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const ingress = `apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: web
spec:
  backend:
    serviceName: web
    servicePort: 80
`;
const networkPolicy = `apiVersion: extensions/v1beta1
kind: NetworkPolicy
metadata:
  name: deny
spec:
  podSelector: {}
`;

describe('orch-apiserver convert (command)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-convert-'));
    await writeFile(path.join(dir, 'ingress.yaml'), ingress);
    await writeFile(path.join(dir, 'multi.yaml'), `${ingress}---\n# second\n${networkPolicy}--- # end\n`);
    await writeFile(path.join(dir, 'ingress.json'), JSON.stringify({ apiVersion: 'extensions/v1beta1', kind: 'Ingress', metadata: { name: 'j' }, spec: {} }));
    await writeFile(path.join(dir, 'list.yaml'), `apiVersion: v1\nkind: List\nitems:\n- ${ingress.trimEnd().replace(/\n/g, '\n  ')}\n- ${networkPolicy.trimEnd().replace(/\n/g, '\n  ')}\n`);
    await writeFile(path.join(dir, 'bad.yaml'), 'a: b: c\n');
    await writeFile(path.join(dir, 'psp.yaml'), 'apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata:\n  name: p\n');
    await writeFile(path.join(dir, 'empty.yaml'), '# nothing\n---\n');
    await mkdir(path.join(dir, 'tree', 'sub'), { recursive: true });
    await writeFile(path.join(dir, 'tree', 'a.yaml'), ingress);
    await writeFile(path.join(dir, 'tree', 'notes.txt'), 'not a manifest');
    await writeFile(path.join(dir, 'tree', 'sub', 'b.yml'), networkPolicy);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('one file with one object prints the object in YAML', async () => {
    const r = await convert(['-f', path.join(dir, 'ingress.yaml'), '--output-version', 'networking.orch.io/v1']);
    expect(r).to.include({ code: 0, err: '' });
    expect(r.out).to.equal(
      [
        'apiVersion: networking.orch.io/v1',
        'kind: Ingress',
        'metadata:',
        '  creationTimestamp: null',
        '  name: web',
        'spec:',
        '  defaultBackend:',
        '    service:',
        '      name: web',
        '      port:',
        '        number: 80',
        'status:',
        '  loadBalancer: {}',
        '',
      ].join('\n'),
    );
  });

  it('a multi-document file prints a v1 List of every object; -o json indents by four', async () => {
    const r = await convert([`--filename=${path.join(dir, 'multi.yaml')}`, '--output-version=networking.orch.io/v1', '-o', 'json']);
    expect(r.code, r.err).to.equal(0);
    expect(r.out).to.match(/^\{\n {4}"kind": "List",\n {4}"apiVersion": "v1",\n {4}"metadata": \{\},\n {4}"items": \[/);
    const list = JSON.parse(r.out);
    expect(list.items.map((i: { kind: string; apiVersion: string }) => `${i.apiVersion} ${i.kind}`)).to.deep.equal(['networking.orch.io/v1 Ingress', 'networking.orch.io/v1 NetworkPolicy']);
  });

  it('reads JSON, flattens Lists, and reads standard input (always a List)', async () => {
    const json = await convert(['-f', path.join(dir, 'ingress.json'), '-ojson']);
    expect(JSON.parse(json.out)).to.include({ kind: 'Ingress', apiVersion: 'networking.orch.io/v1' });
    const list = await convert(['-f', path.join(dir, 'list.yaml')]);
    expect(parseYAML(list.out).items.map((i: { kind: string }) => i.kind)).to.deep.equal(['Ingress', 'NetworkPolicy']);
    const stdin = await convert(['-f', '-'], ingress);
    const parsed = parseYAML(stdin.out);
    expect(parsed.kind).to.equal('List');
    expect(parsed.items[0].spec.defaultBackend.service.name).to.equal('web');
  });

  it('a directory: its manifest files, sub-directories only with -R', async () => {
    const flat = await convert(['-f', path.join(dir, 'tree')]);
    expect(parseYAML(flat.out).items.map((i: { kind: string }) => i.kind)).to.deep.equal(['Ingress']);
    const deep = await convert(['-f', path.join(dir, 'tree'), '-R']);
    expect(parseYAML(deep.out).items.map((i: { kind: string }) => i.kind)).to.deep.equal(['Ingress', 'NetworkPolicy']);
  });

  it('--help prints the usage', async () => {
    const r = await convert(['--help']);
    expect(r.code).to.equal(0);
    expect(r.out).to.contain('--output-version');
  });

  const failures: { name: string; args: () => string[]; err: () => string }[] = [
    { name: 'no -f', args: () => [], err: () => 'error: must specify one of -f and -k\n' },
    { name: 'missing path', args: () => ['-f', path.join(dir, 'nope.yaml')], err: () => `error: the path "${path.join(dir, 'nope.yaml')}" does not exist\n` },
    { name: 'unknown flag', args: () => ['--bogus'], err: () => 'error: unknown flag: --bogus\n' },
    { name: 'unknown shorthand', args: () => ['-x'], err: () => "error: unknown shorthand flag: 'x' in -x\n" },
    { name: 'flag without its value', args: () => ['--output-version'], err: () => 'error: flag needs an argument: --output-version\n' },
    { name: 'short flag without its value', args: () => ['-f'], err: () => "error: flag needs an argument: 'f' in -f\n" },
    {
      name: 'unknown output format',
      args: () => ['-f', path.join(dir, 'ingress.yaml'), '-o', 'xml'],
      err: () => 'error: unable to match a printer suitable for the output format "xml", allowed formats are: json,yaml\n',
    },
    { name: 'malformed output version', args: () => ['-f', path.join(dir, 'ingress.yaml'), '--output-version', 'a/b/c'], err: () => 'error: unexpected GroupVersion string: a/b/c\n' },
    { name: 'no objects', args: () => ['-f', path.join(dir, 'empty.yaml')], err: () => 'error: no objects passed to convert\n' },
    {
      name: 'bad YAML',
      args: () => ['-f', path.join(dir, 'bad.yaml')],
      err: () => `error: error parsing ${path.join(dir, 'bad.yaml')}: error converting YAML to JSON: yaml: mapping values are not allowed in this context\n`,
    },
    {
      name: 'removed kind without replacement',
      args: () => ['-f', path.join(dir, 'psp.yaml')],
      err: () =>
        `error: unable to decode "${path.join(dir, 'psp.yaml')}": no kind "PodSecurityPolicy" is registered for version "policy/v1beta1" in scheme "lib/cmd/convert-scheme.ts": policy/v1beta1 PodSecurityPolicy was removed in v1.25 with no replacement API; use Pod security admission or a third-party admission webhook\n`,
    },
    {
      name: 'every object not in the target version, one line each',
      args: () => ['-f', path.join(dir, 'multi.yaml'), '--output-version', 'apps/v1'],
      err: () =>
        'error: *networking.Ingress is not suitable for converting to "apps/v1" in scheme "lib/cmd/convert-scheme.ts"\n' +
        'error: *networking.NetworkPolicy is not suitable for converting to "apps/v1" in scheme "lib/cmd/convert-scheme.ts"\n',
    },
  ];
  for (const f of failures) {
    it(`error: ${f.name}`, async () => {
      const r = await convert(f.args());
      expect(r).to.deep.equal({ code: 1, out: '', err: f.err() });
    });
  }

  it('splits documents at `---` lines only', () => {
    expect(splitDocuments('a: 1\n---\nb: 2\n--- # c\nc: 3\n---x: 4\n')).to.deep.equal(['a: 1', 'b: 2', 'c: 3\n---x: 4\n']);
  });
});
