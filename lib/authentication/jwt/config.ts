/**
 * The AuthenticationConfiguration document of `--authentication-config` (spec 001
 * § Authentication configuration file): its shape and its strict decoding from YAML or JSON, as
 * upstream decodes its `v1beta1` (unknown and duplicate fields are errors,
 * JSON `null` reads as absent, a wrongly typed value is Go's `cannot unmarshal` error).
 */
import { APISERVER_CONFIG_GROUP, canonicalGroup } from '../../apis/vendor.js';
import { ConfigDecodeError, decodeConfigDocument } from '../../apimachinery/serializers/config-document.js';
import { goJSONTypeName } from '../../apimachinery/serializers/go-json-errors.js';

/** The document's kind. */
export const AUTHENTICATION_CONFIGURATION_KIND = 'AuthenticationConfiguration';
/** The versions of {@link APISERVER_CONFIG_GROUP} the document may use (upstream 1.30 reads both). */
export const AUTHENTICATION_CONFIGURATION_VERSIONS: readonly string[] = ['v1beta1', 'v1alpha1'];

/** `jwt[].issuer`: where tokens come from and whom they must be for. */
export interface Issuer {
  /** `url`: the issuer URL; must equal the token's `iss` and the discovery document's `issuer`. */
  url: string;
  /** `discoveryURL`: where the discovery document is fetched instead of `<url>/.well-known/openid-configuration` ('' = unset). */
  discoveryURL: string;
  /** `certificateAuthority`: PEM CA bundle for the discovery and JWKS connections ('' = the default trust store). */
  certificateAuthority: string;
  /** `audiences`: accepted `aud` values; at least one must be in the token. */
  audiences: string[];
  /** `audienceMatchPolicy`: '' or `MatchAny`. */
  audienceMatchPolicy: string;
}

/** `jwt[].claimValidationRules[]`: `claim` + `requiredValue`, or a boolean `expression` + `message`. */
export interface ClaimValidationRule {
  claim: string;
  requiredValue: string;
  expression: string;
  message: string;
}

/** A username or groups mapping: `claim` with a `prefix` (undefined = not given), or an `expression`. */
export interface PrefixedClaimOrExpression {
  claim: string;
  prefix?: string;
  expression: string;
}

/** The uid mapping: a `claim` or an `expression`. */
export interface ClaimOrExpression {
  claim: string;
  expression: string;
}

/** `claimMappings.extra[]`: an extra key (domain-prefixed path) and the expression giving its values. */
export interface ExtraMapping {
  key: string;
  valueExpression: string;
}

/** `jwt[].claimMappings`. */
export interface ClaimMappings {
  username: PrefixedClaimOrExpression;
  groups: PrefixedClaimOrExpression;
  uid: ClaimOrExpression;
  extra: ExtraMapping[];
}

/** `jwt[].userValidationRules[]`: a boolean expression over `user` and the message when it is false. */
export interface UserValidationRule {
  expression: string;
  message: string;
}

/** One JWT authenticator (`jwt[]`). */
export interface JWTAuthenticatorConfig {
  issuer: Issuer;
  claimValidationRules: ClaimValidationRule[];
  claimMappings: ClaimMappings;
  userValidationRules: UserValidationRule[];
}

/** The decoded document: its JWT authenticators, at most 64 once validated. */
export interface AuthenticationConfiguration {
  jwt: JWTAuthenticatorConfig[];
}


/** Field types of the strict decoder: a string, a string that may be absent, a list, or a struct. */
type FieldType = 'string' | 'optionalString' | ListType | StructType;
interface ListType {
  list: FieldType;
  goElem: string;
}
interface StructType {
  /** Go type name, as it appears in `cannot unmarshal` errors. */
  go: string;
  fields: Readonly<Record<string, FieldType>>;
}

const prefixedClaimOrExpression: StructType = {
  go: 'PrefixedClaimOrExpression',
  fields: { claim: 'string', prefix: 'optionalString', expression: 'string' },
};
const JWT_AUTHENTICATOR: StructType = {
  go: 'JWTAuthenticator',
  fields: {
    issuer: {
      go: 'Issuer',
      fields: {
        url: 'string',
        discoveryURL: 'string',
        certificateAuthority: 'string',
        audiences: { list: 'string', goElem: 'string' },
        audienceMatchPolicy: 'string',
      },
    },
    claimValidationRules: {
      goElem: 'v1beta1.ClaimValidationRule',
      list: { go: 'ClaimValidationRule', fields: { claim: 'string', requiredValue: 'string', expression: 'string', message: 'string' } },
    },
    claimMappings: {
      go: 'ClaimMappings',
      fields: {
        username: prefixedClaimOrExpression,
        groups: prefixedClaimOrExpression,
        uid: { go: 'ClaimOrExpression', fields: { claim: 'string', expression: 'string' } },
        extra: { goElem: 'v1beta1.ExtraMapping', list: { go: 'ExtraMapping', fields: { key: 'string', valueExpression: 'string' } } },
      },
    },
    userValidationRules: {
      goElem: 'v1beta1.UserValidationRule',
      list: { go: 'UserValidationRule', fields: { expression: 'string', message: 'string' } },
    },
  },
};
const DOCUMENT: StructType = {
  go: AUTHENTICATION_CONFIGURATION_KIND,
  fields: { apiVersion: 'string', kind: 'string', jwt: { list: JWT_AUTHENTICATOR, goElem: 'v1beta1.JWTAuthenticator' } },
};

/** Go's name of a field type in `cannot unmarshal … of type <t>`. */
function goTypeName(t: FieldType): string {
  if (t === 'string') return 'string';
  if (t === 'optionalString') return '*string';
  if ('list' in t) return `[]${t.goElem}`;
  return `v1beta1.${t.go}`;
}

/**
 * Walks `value` against `t`, collecting unknown fields (by path, `jwt[0].issuer.foo`) and the first
 * type error (Go's `cannot unmarshal <json type> into Go struct field <Struct>.<json path> of type
 * <go type>`); returns the typed value.
 */
class StrictDecoder {
  readonly unknown: string[] = [];
  typeError: string | undefined;

  /** `path` indexes lists; `jsonPath` does not (as Go prints it); `owner` is the struct holding the field. */
  decode(value: unknown, t: FieldType, path: string, jsonPath: string, owner: string): unknown {
    const mismatch = (): void => {
      this.typeError ??= `json: cannot unmarshal ${goJSONTypeName(value)} into Go struct field ${owner}.${jsonPath} of type ${goTypeName(t)}`;
    };
    if (t === 'string' || t === 'optionalString') {
      if (typeof value === 'string') return value;
      if (value !== null && value !== undefined) mismatch();
      return t === 'string' ? '' : undefined;
    }
    if ('list' in t) {
      if (value === null || value === undefined) return [];
      if (!Array.isArray(value)) {
        mismatch();
        return [];
      }
      return value.map((v, i) => this.decode(v, t.list, `${path}[${i}]`, jsonPath, owner));
    }
    let given: Record<string, unknown> = {};
    if (value !== null && value !== undefined) {
      if (typeof value === 'object' && !Array.isArray(value)) given = value as Record<string, unknown>;
      else mismatch();
    }
    for (const key of Object.keys(given)) {
      if (!Object.hasOwn(t.fields, key)) this.unknown.push(path === '' ? key : `${path}.${key}`);
    }
    const out: Record<string, unknown> = {};
    for (const [name, ft] of Object.entries(t.fields)) {
      const decoded = this.decode(given[name], ft, path === '' ? name : `${path}.${name}`, jsonPath === '' ? name : `${jsonPath}.${name}`, t.go);
      if (decoded !== undefined) out[name] = decoded;
    }
    return out;
  }
}

/**
 * Decodes an AuthenticationConfiguration from file content: JSON when it starts with `{`, YAML
 * otherwise (JSON is YAML too). The apiVersion must be APISERVER_CONFIG_GROUP `/v1beta1` or
 * `/v1alpha1` (the upstream spelling of the group is read as the vendor's), the kind
 * `AuthenticationConfiguration`.
 * @throws ConfigDecodeError for empty data, a syntax error, a wrong apiVersion or kind, unknown or
 *   duplicate fields (`strict decoding error: unknown field "jwt[0].foo"`) or a wrongly typed value.
 */
export function decodeAuthenticationConfiguration(data: string): AuthenticationConfiguration {
  if (data.length === 0) throw new ConfigDecodeError('empty config data');
  const { raw, duplicates } = decodeConfigDocument(data, { kind: AUTHENTICATION_CONFIGURATION_KIND, group: APISERVER_CONFIG_GROUP, versions: AUTHENTICATION_CONFIGURATION_VERSIONS, canonicalGroup });

  const decoder = new StrictDecoder();
  const doc = decoder.decode(raw, DOCUMENT, '', '', DOCUMENT.go) as { jwt: JWTAuthenticatorConfig[] };
  if (decoder.typeError !== undefined) throw new ConfigDecodeError(decoder.typeError);
  const strict = [...decoder.unknown.map((f) => `unknown field ${JSON.stringify(f)}`), ...duplicates.map((f) => `duplicate field ${JSON.stringify(f)}`)];
  if (strict.length > 0) throw new ConfigDecodeError(`strict decoding error: ${strict.join(', ')}`);
  return { jwt: doc.jwt };
}
