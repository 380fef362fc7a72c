/**
 * Write-time rules of a bootstrap token Secret (type BOOTSTRAP_TOKEN_SECRET_TYPE; spec 001
 * § Bootstrap tokens, issue #10 item 3). Upstream validates nothing for this type (its
 * `ValidateSecret` has no case for it) and only the authenticator and the bootstrap controllers
 * skip a malformed token; we reject one on write so a typo is a 422 instead of a silent 401:
 * `data[token-id]` and `data[token-secret]` required and of the token format, the name
 * `bootstrap-token-<token-id>`, `data[expiration]` an RFC 3339 time and every
 * `data[auth-extra-groups]` entry a `system:bootstrappers:` group (upstream's pattern and message).
 */
import { type FieldError, FieldPath, invalid, required } from '../../../apimachinery/field-errors.js';
import type { Obj } from '../../define.js';
import {
  BOOTSTRAP_TOKEN_ID_PATTERN,
  BOOTSTRAP_TOKEN_KEY,
  BOOTSTRAP_TOKEN_SECRET_PATTERN,
  BOOTSTRAP_TOKEN_SECRET_PREFIX,
  bootstrapGroupError,
} from '../../../apimachinery/bootstrap-token.js';
import { goRFC3339Millis } from '../../../apimachinery/go-time.js';

const dataPath = FieldPath.of('data');
/** Shown instead of a token secret in an error, as upstream shows secret contents. */
const REDACTED = '<secret contents redacted>';

/**
 * The field errors of a bootstrap token Secret; `data` holds the decoded values (after
 * `stringData` was merged).
 */
export function validateBootstrapTokenSecret(secret: Obj, data: ReadonlyMap<string, Buffer>): FieldError[] {
  const errs: FieldError[] = [];
  const text = (key: string): string | undefined => data.get(key)?.toString('utf8');

  const id = text(BOOTSTRAP_TOKEN_KEY.tokenID);
  if (id === undefined) {
    errs.push(required(dataPath.key(BOOTSTRAP_TOKEN_KEY.tokenID)));
  } else if (!BOOTSTRAP_TOKEN_ID_PATTERN.test(id)) {
    errs.push(invalid(dataPath.key(BOOTSTRAP_TOKEN_KEY.tokenID), id, "a bootstrap token ID must consist of 6 lower case alphanumeric characters (regex used for validation is '[a-z0-9]{6}')"));
  } else {
    const name = ((secret.metadata as Obj | undefined)?.name as string | undefined) ?? '';
    const want = `${BOOTSTRAP_TOKEN_SECRET_PREFIX}${id}`;
    if (name !== want) errs.push(invalid(FieldPath.of('metadata', 'name'), name, `must be ${JSON.stringify(want)}: ${BOOTSTRAP_TOKEN_SECRET_PREFIX} followed by data[${BOOTSTRAP_TOKEN_KEY.tokenID}]`));
  }

  const tokenSecret = text(BOOTSTRAP_TOKEN_KEY.tokenSecret);
  if (tokenSecret === undefined) {
    errs.push(required(dataPath.key(BOOTSTRAP_TOKEN_KEY.tokenSecret)));
  } else if (!BOOTSTRAP_TOKEN_SECRET_PATTERN.test(tokenSecret)) {
    errs.push(invalid(dataPath.key(BOOTSTRAP_TOKEN_KEY.tokenSecret), REDACTED, "a bootstrap token secret must consist of 16 lower case alphanumeric characters (regex used for validation is '[a-z0-9]{16}')"));
  }

  const expiration = text(BOOTSTRAP_TOKEN_KEY.expiration);
  if (expiration !== undefined && goRFC3339Millis(expiration) === undefined) {
    errs.push(invalid(dataPath.key(BOOTSTRAP_TOKEN_KEY.expiration), expiration, 'must be an RFC 3339 time, e.g. "2006-01-02T15:04:05Z"'));
  }

  const extraGroups = text(BOOTSTRAP_TOKEN_KEY.extraGroups);
  if (extraGroups !== undefined && extraGroups !== '') {
    for (const group of extraGroups.split(',')) {
      const problem = bootstrapGroupError(group);
      if (problem) errs.push(invalid(dataPath.key(BOOTSTRAP_TOKEN_KEY.extraGroups), extraGroups, problem));
    }
  }
  return errs;
}
