/**
 * `spec.conversion` of a CustomResourceDefinition (upstream v1.30 `validateCustomResourceConversion`).
 * Upstream validates its internal type, where the webhook's client configuration and review
 * versions sit directly in `conversion`, so the paths are `spec.conversion.webhookClientConfig…`
 * and `spec.conversion.conversionReviewVersions`, not the v1 `spec.conversion.webhook.…`.
 */
import { type FieldError, type FieldPath, forbidden, goStringSlice, invalid, notSupported, required } from '../../apimachinery/field-errors.js';
import { isDNS1035Label } from '../../apimachinery/validation/names.js';
import { validateWebhookService, validateWebhookURL } from '../../apis/admissionregistration/v1/webhook-url.js';
import { NONE_CONVERSION, WEBHOOK_CONVERSION } from '../../apis/apiextensions/v1/index.js';
import type { CustomResourceConversion } from '../types.js';

/** The ConversionReview versions this server (and the one before it) understands. */
const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];
/** A conversion service's port when none is given (upstream `SetDefaults_ServiceReference`). */
const DEFAULT_SERVICE_PORT = 443;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const present = (v: unknown): boolean => v !== undefined && v !== null;

/** An enum string (upstream `validateEnumStrings`): required when empty, else one of `accepted`. */
export function validateEnum(fldPath: FieldPath, value: string, accepted: string[]): FieldError[] {
  if (value === '') return [required(fldPath)];
  return accepted.includes(value) ? [] : [notSupported(fldPath, value, accepted)];
}

/**
 * The review versions the old definition's webhook lists include a recognized one, or are
 * empty (upstream `hasValidConversionReviewVersionOrEmpty`): updates of a definition without
 * one are not required to add one.
 */
export function hasRecognizedReviewVersionOrEmpty(conversion: CustomResourceConversion | undefined): boolean {
  const versions = conversion?.webhook?.conversionReviewVersions;
  if (!Array.isArray(versions) || versions.length === 0) return true;
  return versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v));
}

function validateReviewVersions(versions: string[], requireRecognized: boolean, fldPath: FieldPath): FieldError[] {
  if (versions.length === 0) return [required(fldPath)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(fldPath.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(invalid(fldPath.index(i), v, msg));
  });
  if (requireRecognized && !versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v))) {
    errs.push(invalid(fldPath, goStringSlice(versions), `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  }
  return errs;
}

/**
 * The errors of `conversion` at `fldPath` (`spec.conversion`): strategy None or Webhook; Webhook
 * needs a client configuration with exactly one of url (https, upstream's URL rules) and service,
 * and review versions (DNS-1035, no duplicates, one of v1/v1beta1 when `requireRecognized`);
 * None must have neither.
 */
export function validateConversion(conversion: CustomResourceConversion | undefined, requireRecognized: boolean, fldPath: FieldPath): FieldError[] {
  if (!present(conversion)) return [];
  const c = conversion!;
  const strategy = str(c.strategy);
  const errs = validateEnum(fldPath.child('strategy'), strategy, [NONE_CONVERSION, WEBHOOK_CONVERSION]);
  const clientConfig = c.webhook?.clientConfig;
  const reviewVersions = Array.isArray(c.webhook?.conversionReviewVersions) ? c.webhook!.conversionReviewVersions.map(str) : [];
  const ccPath = fldPath.child('webhookClientConfig');
  if (strategy === WEBHOOK_CONVERSION) {
    if (!present(clientConfig)) errs.push(required(ccPath, 'required when strategy is set to Webhook'));
    else {
      const cc = clientConfig!;
      if (present(cc.url) === present(cc.service)) errs.push(required(ccPath, 'exactly one of url or service is required'));
      else if (present(cc.url)) errs.push(...validateWebhookURL(ccPath.child('url'), str(cc.url)));
      else {
        const s = cc.service!;
        errs.push(
          ...validateWebhookService(ccPath.child('service'), {
            name: str(s.name),
            namespace: str(s.namespace),
            path: typeof s.path === 'string' ? s.path : undefined,
            port: typeof s.port === 'number' ? s.port : DEFAULT_SERVICE_PORT,
          }),
        );
      }
    }
    errs.push(...validateReviewVersions(reviewVersions, requireRecognized, fldPath.child('conversionReviewVersions')));
  } else {
    if (present(clientConfig)) errs.push(forbidden(ccPath, 'should not be set when strategy is not set to Webhook'));
    if (reviewVersions.length > 0) errs.push(forbidden(fldPath.child('conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
  }
  return errs;
}
