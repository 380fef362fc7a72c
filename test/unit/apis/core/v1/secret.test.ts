import { expect } from 'chai';
import { mergeStringData } from '../../../../../lib/apis/core/v1/secret-string-data.js';
import { SECRET_TYPE, SERVICE_ACCOUNT_NAME_ANNOTATION } from '../../../../../lib/apis/core/v1/secret-types.js';
import { secret } from '../../../../../lib/apis/core/v1/secret.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const minimal = (): Obj => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'default' } });
const defaulted = (o: Obj): Obj => {
  decodeAndDefault(secret, o);
  return o;
};

describe('core/v1 Secret (issue #2 item 5)', () => {
  it('declares the upstream discovery facts', () => {
    expect(secret).to.include({ group: '', version: 'v1', resource: 'secrets', singular: 'secret', namespaced: true, nameRule: 'dns1123Subdomain', statusSubresource: false });
    expect(secret.shortNames).to.deep.equal([]);
  });

  it('decodes a minimal secret, defaults type Opaque and validates clean', () => {
    const s = minimal();
    expect(decodeAndDefault(secret, s)).to.deep.equal({ unknownFields: [] });
    expect(s).to.deep.equal({ ...minimal(), type: 'Opaque' });
    expect(validateCreate(secret, s)).to.deep.equal([]);
  });

  it('decodes the complete fixture with every field and no unknown field', () => {
    expect(decodeAndDefault(secret, fixture('secret'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(secret.schema, fixture('secret'))).to.deep.equal([]);
  });

  it('rejects data that is not base64 at decode time', () => {
    expect(decodeAndDefault(secret, variant(minimal(), (o) => (o.data = { a: 'not base64!' }))).typeError).to.match(/illegal base64 data/);
  });

  it('mergeStringData writes stringData into data (overwriting) and drops stringData', () => {
    const s = variant(minimal(), (o) => {
      o.data = { a: b64('old'), b: b64('keep') };
      o.stringData = { a: 'new', c: 'ç' };
    });
    mergeStringData(s);
    expect(s).to.deep.equal({ ...minimal(), data: { a: b64('new'), b: b64('keep'), c: b64('ç') } });
  });

  const cases: Array<[string, (o: Obj) => void, string[]]> = [
    ['data keys must be config keys, reported at data[key]', (o) => (o.data = { 'bad/key': b64('x') }), [
      "data[bad/key]: Invalid value: \"bad/key\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ]],
    ['data keys may not start with ..', (o) => (o.data = { '..x': b64('x') }), ['data[..x]: Invalid value: "..x": must not start with \'..\'']],
    ['decoded data may not exceed 1 MiB', (o) => (o.data = { big: Buffer.alloc(1024 * 1024 + 1).toString('base64') }), ['data: Too long: may not be more than 1048576 bytes']],
    ['service-account-token secrets name their service account', (o) => (o.type = SECRET_TYPE.serviceAccountToken), [
      `metadata.annotations[${SERVICE_ACCOUNT_NAME_ANNOTATION}]: Required value`,
    ]],
    ['dockercfg secrets need .dockercfg', (o) => (o.type = SECRET_TYPE.dockercfg), ['data[.dockercfg]: Required value']],
    ['dockercfg content must be a JSON object', (o) => {
      o.type = SECRET_TYPE.dockercfg;
      o.data = { '.dockercfg': b64('{"a": }') };
    }, ['data[.dockercfg]: Invalid value: "<secret contents redacted>": invalid character \'}\' looking for beginning of value']],
    ['dockerconfigjson content must decode into a map', (o) => {
      o.type = SECRET_TYPE.dockerConfigJson;
      o.data = { '.dockerconfigjson': b64('[1]') };
    }, ['data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}']],
    ['truncated dockerconfigjson content', (o) => {
      o.type = SECRET_TYPE.dockerConfigJson;
      o.data = { '.dockerconfigjson': b64('{"auths": {') };
    }, ['data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": unexpected end of JSON input']],
    ['well-formed dockerconfigjson is accepted', (o) => {
      o.type = SECRET_TYPE.dockerConfigJson;
      o.data = { '.dockerconfigjson': b64('{"auths": {"r.example.com": {"auth": "eDp5"}}}') };
    }, []],
    ['basic-auth secrets need a username or a password', (o) => (o.type = SECRET_TYPE.basicAuth), ['data[username]: Required value', 'data[password]: Required value']],
    ['basic-auth with only a password is accepted', (o) => {
      o.type = SECRET_TYPE.basicAuth;
      o.data = { password: '' };
    }, []],
    ['ssh-auth secrets need a non-empty private key', (o) => {
      o.type = SECRET_TYPE.sshAuth;
      o.data = { 'ssh-privatekey': '' };
    }, ['data[ssh-privatekey]: Required value']],
    ['tls secrets need tls.crt and tls.key', (o) => {
      o.type = SECRET_TYPE.tls;
      o.data = { 'tls.crt': b64('cert') };
    }, ['data[tls.key]: Required value']],
    ['unknown types have no extra rules', (o) => (o.type = 'example.com/custom'), []],
  ];
  for (const [name, mutate, expected] of cases) {
    it(`validation: ${name}`, () => {
      expect(messages(validateCreate(secret, defaulted(variant(minimal(), mutate))))).to.deep.equal(expected);
    });
  }

  describe('update rules', () => {
    it('type is immutable', () => {
      const old = defaulted(minimal());
      const updated = variant(old, (o) => {
        o.type = SECRET_TYPE.basicAuth;
        o.data = { username: b64('u') };
      });
      expect(messages(validateUpdate(secret, updated, old))).to.deep.equal([`type: Invalid value: "${SECRET_TYPE.basicAuth}": field is immutable`]);
    });
    it('with immutable set, data and the flag are frozen', () => {
      const old = defaulted(variant(minimal(), (o) => {
        o.immutable = true;
        o.data = { a: b64('1') };
      }));
      const updated = variant(old, (o) => {
        o.immutable = false;
        o.data = { a: b64('2') };
      });
      expect(messages(validateUpdate(secret, updated, old))).to.deep.equal([
        'data: Forbidden: field is immutable when `immutable` is set',
        'immutable: Forbidden: field is immutable when `immutable` is set',
      ]);
    });
    it('with immutable set, metadata may still change', () => {
      const old = defaulted(variant(minimal(), (o) => (o.immutable = true)));
      const updated = variant(old, (o) => ((o.metadata as Obj).labels = { a: 'b' }));
      expect(validateUpdate(secret, updated, old)).to.deep.equal([]);
    });
  });
});
