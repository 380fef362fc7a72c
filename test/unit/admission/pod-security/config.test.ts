import { expect } from 'chai';
import { ENFORCE_LEVEL_LABEL, ENFORCE_VERSION_LABEL, WARN_LEVEL_LABEL, AUDIT_LEVEL_LABEL, compareLevels, parseVersion, policyToEvaluate } from '../../../../lib/admission/plugins/pod-security/api.js';
import { defaultPodSecurityConfig, loadPodSecurityConfig } from '../../../../lib/admission/plugins/pod-security/config.js';
import { fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';

const DEFAULTS = defaultPodSecurityConfig().defaults;
const PRIVILEGED = { level: 'privileged', version: 'latest' };

describe('Pod Security namespace labels (upstream PolicyToEvaluate)', () => {
  it('labels override the defaults per mode; unrelated labels are ignored', () => {
    const { policy, errors } = policyToEvaluate({ [ENFORCE_LEVEL_LABEL]: 'baseline', [ENFORCE_VERSION_LABEL]: 'v1.25', app: 'x' }, DEFAULTS);
    expect(errors).to.deep.equal([]);
    expect(policy).to.deep.equal({ enforce: { level: 'baseline', version: 25 }, audit: PRIVILEGED, warn: PRIVILEGED });
    expect(policyToEvaluate(undefined, DEFAULTS).policy).to.deep.equal({ enforce: PRIVILEGED, audit: PRIVILEGED, warn: PRIVILEGED });
  });

  it('invalid values: enforce fails closed (restricted), audit and warn fail open (privileged), versions read as latest', () => {
    const { policy, errors } = policyToEvaluate({ [ENFORCE_LEVEL_LABEL]: 'strict', [WARN_LEVEL_LABEL]: 'x', [AUDIT_LEVEL_LABEL]: 'y', [ENFORCE_VERSION_LABEL]: 'v1.030' }, DEFAULTS);
    expect(policy.enforce).to.deep.equal({ level: 'restricted', version: 'latest' });
    expect(policy.audit.level).to.equal('privileged');
    expect(policy.warn.level).to.equal('privileged');
    expect(errors.map(fieldErrorString)).to.deep.equal([
      'metadata.labels[pod-security.orch.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.orch.io/enforce-version]: Invalid value: "v1.030": must be "latest" or "v1.x"',
      'metadata.labels[pod-security.orch.io/audit]: Invalid value: "y": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.orch.io/warn]: Invalid value: "x": must be one of privileged, baseline, restricted',
    ]);
  });

  it('versions: latest, v1.0, v1.30, future minors; nothing else', () => {
    expect(parseVersion('v1.0').version).to.equal(0);
    expect(parseVersion('v1.30').version).to.equal(30);
    expect(parseVersion('v1.99').version).to.equal(99);
    for (const bad of ['1.30', 'v2.0', 'v1.', 'Latest', 'v1.3a']) expect(parseVersion(bad).error, bad).to.equal('must be "latest" or "v1.x"');
    expect(compareLevels('restricted', 'baseline')).to.equal(1);
    expect(compareLevels('privileged', 'baseline')).to.equal(-1);
  });
});

describe('PodSecurityConfiguration (plugin configuration)', () => {
  const apiVersion = 'pod-security.admission.config.orch.io/v1';

  it('no configuration: privileged/latest everywhere, no exemptions', () => {
    expect(loadPodSecurityConfig(undefined)).to.deep.equal(defaultPodSecurityConfig());
  });

  it('reads defaults and exemptions; empty levels and versions default; the upstream group spelling is accepted', () => {
    const cfg = loadPodSecurityConfig({
      apiVersion: 'pod-security.admission.config.k8s.io/v1',
      kind: 'PodSecurityConfiguration',
      defaults: { enforce: 'baseline', 'enforce-version': 'v1.29', warn: 'restricted', audit: '' },
      exemptions: { usernames: ['admin'], runtimeClasses: ['kata'], namespaces: ['orch-system'] },
    });
    expect(cfg.defaults).to.deep.equal({ enforce: { level: 'baseline', version: 29 }, warn: { level: 'restricted', version: 'latest' }, audit: PRIVILEGED });
    expect([...cfg.exemptions.usernames, ...cfg.exemptions.runtimeClasses, ...cfg.exemptions.namespaces]).to.deep.equal(['admin', 'kata', 'orch-system']);
    expect(loadPodSecurityConfig({ apiVersion: 'pod-security.admission.config.orch.io/v1beta1', kind: 'PodSecurityConfiguration' }).defaults.enforce).to.deep.equal(PRIVILEGED);
  });

  it('a wrong kind or apiVersion is a start-up error', () => {
    expect(() => loadPodSecurityConfig({ apiVersion, kind: 'Other' })).to.throw('PodSecurity configuration error: no kind "Other" is registered for version "pod-security.admission.config.orch.io/v1"');
    expect(() => loadPodSecurityConfig({ defaults: {} })).to.throw("PodSecurity configuration error: Object 'Kind' is missing in");
  });

  it('bad values are a start-up error with upstream field errors', () => {
    expect(() => loadPodSecurityConfig({ apiVersion, kind: 'PodSecurityConfiguration', defaults: { enforce: 'strict' } })).to.throw(
      'PodSecurity invalid: defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted',
    );
    expect(() =>
      loadPodSecurityConfig({
        apiVersion,
        kind: 'PodSecurityConfiguration',
        defaults: { 'warn-version': 'v2' },
        exemptions: { namespaces: ['Bad_NS', 'ok', 'ok'], runtimeClasses: [7], usernames: [''] },
      }),
    ).to.throw(
      'PodSecurity invalid: [defaults.warn-version: Invalid value: "v2": must be "latest" or "v1.x", exemptions.namespaces[0]: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\'), exemptions.namespaces[2]: Duplicate value: "ok", exemptions.runtimeClasses[0]: Invalid value: 7: must be a string, exemptions.usernames[0]: Required value]',
    );
  });
});
