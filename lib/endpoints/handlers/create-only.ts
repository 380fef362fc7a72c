/**
 * POST to a create-only resource or subresource (registry/rest/creater.ts): TokenReview,
 * SelfSubjectReview, `serviceaccounts/<name>/token`. The body is decoded, checked and admitted as
 * a create's (spec 000 § Resource operations: Create, § Modifying-request query parameters), then
 * handed to the Creater, whose answer (an object of its kind, or a Status) is written with 201;
 * nothing need be stored.
 */
import { type Status, newBadRequest, orderedStatus } from '../../apimachinery/errors.js';
import { canonicalize } from '../../apimachinery/schema/canonical.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import { type KindConversion, aliasKindOf, kindConversion } from '../../apis/group-alias.js';
import type { Creater } from '../../registry/rest/creater.js';
import { readBody } from './body.js';
import { decodeBodyObjectOf } from './decode-object.js';
import { chooseWriteRepresentation } from './representation.js';
import { type HandlerScope, type ResourceEntry, admissionAttributes, writeRepresented, writeWarnings } from './scope.js';
import { parseWriteOptions } from './write-options.js';

/** One accepted spelling of a Creater's kind: the kind as written on the wire and its conversion to the Creater's own. */
export interface KindSpelling {
  kind: KindDefinition;
  /** Absent: the spelling is the Creater's own and has no group references to rewrite. */
  conversion?: KindConversion;
}

/** The scope of a create-only request. */
export interface CreaterScope extends HandlerScope {
  creater: Creater;
  /** The spellings the body may use, the preferred first (createrSpellings). */
  spellings: readonly KindSpelling[];
}

/** The spellings of a subresource Creater's kind: its own, then (with the upstream aliases) its group's alias. */
const subresourceSpellings = new WeakMap<Creater, { vendorOnly: KindSpelling[]; withAlias: KindSpelling[] }>();

/**
 * The spellings a create-only request body may use. A main create-only resource takes its
 * entry's kind, the alias spelling under the upstream alias (the entry's conversion maps it to
 * the Creater's kind). A create-only subresource, whose kind belongs to another group than the
 * path it is reached through (TokenRequest under `/api/v1`), takes its kind in the vendor
 * spelling and, when `upstreamAliases`, in the upstream alias's too; the answer is written in the
 * spelling the body used.
 */
export function createrSpellings(entry: ResourceEntry, subresource: string, creater: Creater, upstreamAliases: boolean): readonly KindSpelling[] {
  if (!subresource) return [{ kind: entry.kind, conversion: entry.conversion }];
  let cached = subresourceSpellings.get(creater);
  if (!cached) {
    const own = creater.kind;
    const vendorOnly: KindSpelling[] = [{ kind: own, conversion: kindConversion(own, own) }];
    const alias = aliasKindOf(own);
    cached = { vendorOnly, withAlias: alias ? [...vendorOnly, { kind: alias, conversion: kindConversion(own, alias) }] : vendorOnly };
    subresourceSpellings.set(creater, cached);
  }
  return upstreamAliases ? cached.withAlias : cached.vendorOnly;
}

/**
 * Upstream EnsureObjectNamespaceMatchesRequestNamespace: a body without a namespace takes the
 * request's, a cluster-scoped request clears it.
 * @throws StatusError 400 when the body names another namespace than a namespaced request.
 */
function matchRequestNamespace(obj: Obj, namespace: string): void {
  const meta = (obj.metadata ??= {}) as Obj;
  const own = (meta.namespace as string | undefined) ?? '';
  if (own === namespace) return;
  if (own === '') meta.namespace = namespace;
  else if (namespace === '') delete meta.namespace;
  else throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
}

/**
 * Serves `create` on a create-only resource or subresource: write options, body decoded as one
 * of the accepted spellings (field validation, defaults), the request's namespace, mutating
 * admission (no managed fields: upstream's answers for these kinds carry none), then the Creater with a `validate` callback running validating
 * admission; answers 201 with the Creater's object in canonical form, in the spelling the body
 * used (JSON, YAML or protobuf as negotiated), or with the Status it answered (a Failure under
 * its own code).
 * @throws StatusError 422 for bad options, 400/415 for a bad body, and whatever admission or the Creater throws.
 */
export async function handleCreateOnly(s: CreaterScope): Promise<void> {
  const opts = parseWriteOptions(s.query, 'CreateOptions');
  const body = await readBody(s.koa.req);
  const decoded = decodeBodyObjectOf(s.req, s.spellings.map((sp) => sp.kind), s.koa.get('Content-Type'), body, opts.fieldValidation, s.upstreamAliases);
  const spelling = s.spellings.find((sp) => sp.kind.apiVersion === decoded.apiVersion) ?? s.spellings[0]!;
  const obj = spelling.conversion ? spelling.conversion.toStorage(decoded) : decoded;
  matchRequestNamespace(obj, s.namespace);
  const kind = s.creater.kind;
  const attrs = { ...admissionAttributes(s, 'CREATE', obj, null, opts.dryRun), kind: kind.kind, requestKind: kind.kind };
  await s.admission.admit(s.req, attrs);
  const answer = await s.creater.create(s.req, { namespace: s.namespace, name: s.name }, obj, {
    dryRun: opts.dryRun,
    validate: async (o) => s.admission.validate(s.req, { ...attrs, object: o }),
  });
  writeWarnings(s.koa, s.req);
  if (answer.kind === 'Status') {
    // A Creater that answers with a Status (`pods/binding`, `pods/eviction`): written as is, its
    // code 201 unless it says otherwise, as upstream's create handler fills a zero code.
    const st = orderedStatus({ ...(answer as unknown as Status), code: (answer.code as number | undefined) || 201 });
    await writeRepresented(s.koa, st.status === 'Failure' ? st.code : 201, st, chooseWriteRepresentation(s), false, spelling.kind);
    return;
  }
  const out = canonicalize(kind.schema, { ...answer, kind: kind.kind, apiVersion: kind.apiVersion });
  await writeRepresented(s.koa, 201, spelling.conversion ? spelling.conversion.toServed(out) : out, chooseWriteRepresentation(s), false, spelling.kind);
}
