/**
 * The naming decision of a CustomResourceDefinition (upstream v1.30 apiextensions
 * `NamingConditionController.calculateNamesAndConditions` and the write check of its `sync`):
 * which of `spec.names` the CRD may claim given the names the other CRDs of its group have
 * already been accepted under, the `NamesAccepted` condition, and the `Established` condition the
 * naming controller writes beside it (the establishing controller turns it True). Pure.
 */
import type { CustomResourceDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionStatus } from '../../apiextensions/types.js';
import { aggregateMessage } from '../../apimachinery/errors.js';
import { goQuote } from '../../apimachinery/go-quote.js';
import { type Condition, ESTABLISHED, NAMES_ACCEPTED, findCondition, isConditionEquivalent, setCondition } from './conditions.js';

/** What the naming rules decide for one CRD. */
export interface NamingResult {
  /** The names to record in `status.acceptedNames`. */
  acceptedNames: CustomResourceDefinitionNames;
  /** `NamesAccepted`: True `NoConflicts`, or False with the reason of the last conflicting name kind. */
  namesAccepted: Condition;
  /**
   * `Established` to write with it: the current one if any (else False `NotAccepted`), replaced
   * by False `Installing` when the names are accepted and it is not True yet.
   */
  established: Condition;
}

const NOT_ACCEPTED: Condition = { type: ESTABLISHED, status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
const INSTALLING: Condition = { type: ESTABLISHED, status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };

/** The conflict text of a name another CRD holds, or undefined when `requested` is free or already ours. */
function conflict(requested: string, accepted: string, used: ReadonlySet<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `${goQuote(requested)} is already in use`;
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean => {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/**
 * Whether two name sets are the same, an absent string or list counting as empty (upstream's
 * semantic equality of CustomResourceDefinitionNames).
 */
export function namesEqual(a: CustomResourceDefinitionNames | undefined, b: CustomResourceDefinitionNames | undefined): boolean {
  return (
    (a?.plural ?? '') === (b?.plural ?? '') &&
    (a?.singular ?? '') === (b?.singular ?? '') &&
    (a?.kind ?? '') === (b?.kind ?? '') &&
    (a?.listKind ?? '') === (b?.listKind ?? '') &&
    sameList(a?.shortNames, b?.shortNames) &&
    sameList(a?.categories, b?.categories)
  );
}

/** Names as upstream serializes them: `plural` and `kind` always, the others only when non-empty. */
function names(plural: string, singular: string, shortNames: readonly string[] | undefined, kind: string, listKind: string, categories: readonly string[] | undefined): CustomResourceDefinitionNames {
  const out: Partial<CustomResourceDefinitionNames> = { plural };
  if (singular) out.singular = singular;
  if (shortNames && shortNames.length > 0) out.shortNames = [...shortNames];
  out.kind = kind;
  if (listKind) out.listKind = listKind;
  if (categories && categories.length > 0) out.categories = [...categories];
  return out as CustomResourceDefinitionNames;
}

/**
 * Decides the accepted names of `crd` against the CRDs of its group (`others` may hold any CRDs:
 * those of another group and `crd` itself, by name, are skipped; `crd`'s own accepted names count
 * as used, as upstream reads its own status back). Resource names (plural, singular, short names)
 * and kinds (kind, listKind) are separate namespaces. A requested name equal to the one already
 * accepted, or held by no CRD of the group, is taken; a conflicting one keeps the previously
 * accepted value and sets NamesAccepted False with `PluralConflict`, `SingularConflict`,
 * `ShortNamesConflict` (all short names or none; message: the aggregate of
 * `"x" is already in use`), `KindConflict` or `ListKindConflict` (the last one checked wins).
 * Categories are always taken from the spec. Only accepted names of the others count (upstream
 * ignores their spec names). Never throws.
 */
export function computeNames(crd: CustomResourceDefinition, others: readonly CustomResourceDefinition[]): NamingResult {
  const group = crd.spec?.group;
  const resources = new Set<string>();
  const kinds = new Set<string>();
  const claim = (n: CustomResourceDefinitionNames | undefined) => {
    resources.add(n?.plural ?? '');
    resources.add(n?.singular ?? '');
    for (const s of n?.shortNames ?? []) resources.add(s);
    kinds.add(n?.kind ?? '');
    kinds.add(n?.listKind ?? '');
  };
  claim(crd.status?.acceptedNames);
  for (const o of others) {
    if (o.spec?.group === group && o.metadata?.name !== crd.metadata?.name) claim(o.status?.acceptedNames);
  }

  const requested = crd.spec?.names;
  const accepted = crd.status?.acceptedNames;
  let plural = accepted?.plural ?? '';
  let singular = accepted?.singular ?? '';
  let shortNames = accepted?.shortNames;
  let kind = accepted?.kind ?? '';
  let listKind = accepted?.listKind ?? '';
  let failed: Condition | undefined;
  const fail = (reason: string, message: string) => (failed = { type: NAMES_ACCEPTED, status: 'False', reason, message });

  const check = (reason: string, want: string, had: string, used: ReadonlySet<string>): boolean => {
    const err = conflict(want, had, used);
    if (err !== undefined) fail(reason, err);
    return err === undefined;
  };
  if (check('PluralConflict', requested?.plural ?? '', plural, resources)) plural = requested?.plural ?? '';
  if (check('SingularConflict', requested?.singular ?? '', singular, resources)) singular = requested?.singular ?? '';
  if (!sameList(requested?.shortNames, accepted?.shortNames)) {
    const mine = new Set(accepted?.shortNames ?? []);
    const errs: string[] = [];
    for (const s of requested?.shortNames ?? []) {
      if (mine.has(s)) continue;
      const err = conflict(s, '', resources);
      if (err !== undefined) errs.push(err);
    }
    if (errs.length > 0) fail('ShortNamesConflict', aggregateMessage(errs));
    else shortNames = requested?.shortNames;
  }
  if (check('KindConflict', requested?.kind ?? '', kind, kinds)) kind = requested?.kind ?? '';
  if (check('ListKindConflict', requested?.listKind ?? '', listKind, kinds)) listKind = requested?.listKind ?? '';

  const namesAccepted = failed ?? { type: NAMES_ACCEPTED, status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  const current = findCondition(crd.status, ESTABLISHED);
  let established: Condition = current ? { type: ESTABLISHED, status: current.status, reason: current.reason ?? '', message: current.message ?? '' } : NOT_ACCEPTED;
  if (established.status !== 'True' && namesAccepted.status === 'True') established = INSTALLING;
  return {
    acceptedNames: names(plural, singular, shortNames, kind, listKind, requested?.categories),
    namesAccepted: { ...namesAccepted },
    established: { ...established },
  };
}

/**
 * The status the naming controller writes for `crd` at `now`, or undefined when it writes
 * nothing: when `spec.names` equal `status.acceptedNames` and NamesAccepted is True already, or
 * when neither the accepted names nor the NamesAccepted condition change. The result is a new
 * status object (`crd` is not mutated): acceptedNames replaced, NamesAccepted then Established set
 * by setCondition. Upstream v1.30 also skips when the names are equal but NamesAccepted is False,
 * which leaves a resolved conflict reported forever (kubernetes/kubernetes#121918); this does not.
 */
export function namingStatus(crd: CustomResourceDefinition, others: readonly CustomResourceDefinition[], now: Date): CustomResourceDefinitionStatus | undefined {
  const status = crd.status;
  const namesAcceptedNow = findCondition(status, NAMES_ACCEPTED);
  if (namesEqual(crd.spec?.names, status?.acceptedNames) && namesAcceptedNow?.status === 'True') return undefined;
  const result = computeNames(crd, others);
  if (namesEqual(status?.acceptedNames, result.acceptedNames) && isConditionEquivalent(result.namesAccepted, namesAcceptedNow)) return undefined;
  const next: CustomResourceDefinitionStatus = { ...status, conditions: (status?.conditions ?? []).map((c) => ({ ...c })), acceptedNames: result.acceptedNames };
  setCondition(next, result.namesAccepted, now);
  setCondition(next, result.established, now);
  return next;
}
