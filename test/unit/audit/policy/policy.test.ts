import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadPolicyFile, parsePolicy } from '../../../../lib/audit/policy.js';

const head = 'apiVersion: audit.orch.io/v1\nkind: Policy\n';

describe('audit policy parsing (upstream pkg/audit/policy/reader.go, apis/audit/validation)', () => {
  it('reads YAML and JSON, in the vendor group and its upstream alias', () => {
    const y = parsePolicy(`${head}omitStages: [RequestReceived]\nrules:\n- level: Metadata\n  resources:\n  - group: ""\n    resources: ["pods/log", "*"]\n  omitManagedFields: true\n`);
    expect(y.omitStages).to.deep.equal(['RequestReceived']);
    expect(y.rules[0]).to.include({ level: 'Metadata', omitManagedFields: true });
    expect(y.rules[0]!.resources).to.deep.equal([{ group: '', resources: ['pods/log', '*'], resourceNames: undefined }]);
    const j = parsePolicy(JSON.stringify({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'None', users: ['a'] }] }));
    expect(j.rules[0]!.users).to.deep.equal(['a']);
  });

  const bad: Array<[string, string, string]> = [
    ['unknown level', `${head}rules:\n- level: Everything\n`, 'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"'],
    ['no rules', `${head}rules: []\n`, 'loaded illegal policy with 0 rules'],
    ['unknown group version', 'apiVersion: audit.orch.io/v2\nkind: Policy\nrules:\n- level: None\n', 'unknown group version field audit.orch.io/v2, Kind=Policy in policy'],
    ['resources and URLs together', `${head}rules:\n- level: None\n  namespaces: [a]\n  nonResourceURLs: ["/x"]\n`, 'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs'],
    ['URL without slash', `${head}rules:\n- level: None\n  nonResourceURLs: ["x"]\n`, `rules[0].nonResourceURLs[0]: Invalid value: "x": non-resource URL rules must begin with a '/' character`],
    ['inner wildcard', `${head}rules:\n- level: None\n  nonResourceURLs: ["/a*/b"]\n`, `rules[0].nonResourceURLs[0]: Invalid value: "/a*/b": non-resource URL wildcards '*' must be the final character of the rule`],
    ['names without resources', `${head}rules:\n- level: None\n  resources:\n  - group: apps\n    resourceNames: [x]\n`, 'rules[0].resources[0].resourceNames: Invalid value: []string{"x"}: using resourceNames requires at least one resource'],
    ['bad omit stage', `${head}omitStages: [Sometimes]\nrules:\n- level: None\n`, 'omitStages[0]: Invalid value: "Sometimes": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic'],
    ['bad group name', `${head}rules:\n- level: None\n  resources:\n  - group: Apps_X\n`, 'rules[0].resources[0].group: Invalid value: "Apps_X": a lowercase RFC 1123 subdomain'],
    [
      'several errors aggregate',
      `${head}rules:\n- level: X\n- level: Y\n`,
      '[rules[0].level: Unsupported value: "X": supported values: "None", "Metadata", "Request", "RequestResponse", rules[1].level: Unsupported value: "Y": supported values: "None", "Metadata", "Request", "RequestResponse"]',
    ],
  ];
  for (const [name, text, message] of bad) {
    it(`rejects: ${name}`, () => {
      expect(() => parsePolicy(text)).to.throw(message);
    });
  }

  it('names the file in load errors', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-policy-'));
    try {
      const file = path.join(dir, 'policy.yaml');
      writeFileSync(file, `${head}rules: []\n`);
      const failure = (f: string) => loadPolicyFile(f).then(() => undefined, (e: Error) => e);
      expect((await failure(file))?.message).to.equal(`loaded illegal policy with 0 rules: from file ${file}`);
      expect((await failure(path.join(dir, 'missing.yaml')))?.message).to.match(/^failed to read file path ".*missing\.yaml": ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
