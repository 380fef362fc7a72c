import { expect } from 'chai';
import { serviceAccount } from '../../../../../lib/apis/core/v1/service-account.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'ci' } });

describe('core/v1 ServiceAccount (issue #2 item 5)', () => {
  it('declares the upstream discovery facts', () => {
    expect(serviceAccount).to.include({ group: '', version: 'v1', resource: 'serviceaccounts', singular: 'serviceaccount', namespaced: true, nameRule: 'dns1123Subdomain', statusSubresource: false });
    expect(serviceAccount.shortNames).to.deep.equal(['sa']);
  });

  it('decodes a minimal service account with no defaults and validates clean', () => {
    const sa = minimal();
    expect(decodeAndDefault(serviceAccount, sa)).to.deep.equal({ unknownFields: [] });
    expect(sa).to.deep.equal(minimal());
    expect(validateCreate(serviceAccount, sa)).to.deep.equal([]);
  });

  it('decodes the complete fixture with every field and no unknown field', () => {
    expect(decodeAndDefault(serviceAccount, fixture('service-account'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(serviceAccount.schema, fixture('service-account'))).to.deep.equal([]);
  });

  it('validation: names are DNS subdomains', () => {
    const sa = variant(minimal(), (o) => ((o.metadata as Obj).name = 'Builder'));
    expect(messages(validateCreate(serviceAccount, sa))).to.deep.equal([
      "metadata.name: Invalid value: \"Builder\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });

  it('reports a wrongly typed field at decode time', () => {
    expect(decodeAndDefault(serviceAccount, variant(minimal(), (o) => (o.automountServiceAccountToken = 'yes'))).typeError).to.equal(
      'json: cannot unmarshal string into Go struct field ServiceAccount.automountServiceAccountToken of type bool',
    );
  });
});
