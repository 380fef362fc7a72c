/**
 * DELETE of one object and of a collection (spec 000 § Object deletion lifecycle; DeleteOptions in
 * the body and/or query).
 */
import { newBadRequest } from '../../apimachinery/errors.js';
import { type FieldError, invalid, notSupported } from '../../apimachinery/field-errors.js';
import type { Obj } from '../../apis/define.js';
import { deleteOptions } from '../../apis/meta/v1/types.js';
import { decodeObject } from '../../apimachinery/schema/decode.js';
import { ProtobufError, decodeProtobuf } from '../../apimachinery/serializers/protobuf/index.js';
import { newSelectionPredicate } from '../../registry/generic/predicate.js';
import type { DeleteOptionsBody } from '../../registry/rest/strategy.js';
import { readBody, decodeObjectBody } from './body.js';
import { protobufMediaTypes } from './protobuf.js';
import { parseListParams } from './list-options.js';
import { admissionAttributes, type Scope, writeObject } from './scope.js';
import { parseDryRun, throwIfInvalidOptions } from './write-options.js';

/** The propagation policies in upstream's order of its supported-values list. */
const POLICIES = ['Foreground', 'Background', 'Orphan'] as const;

function intOrUndefined(v: unknown, name: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n)) throw newBadRequest(`invalid value for ${name}: ${String(v)}`);
  return n;
}

/** A protobuf DeleteOptions body (any apiVersion: clients send `v1` or the meta group). */
function decodeDeleteOptionsProtobuf(body: Buffer): Obj {
  try {
    return decodeProtobuf(body, (_apiVersion, kind) => (kind === 'DeleteOptions' ? deleteOptions : undefined)).object;
  } catch (err) {
    if (err instanceof ProtobufError) throw newBadRequest(err.message);
    throw err;
  }
}

/** DeleteOptions from the body (JSON/YAML, optional) overlaid by query parameters. */
export async function parseDeleteOptions(s: Scope): Promise<{ options: DeleteOptionsBody; dryRun: boolean }> {
  const raw = await readBody(s.koa.req);
  const body: Obj = raw.length > 0 && raw.toString('utf8').trim() !== '' ? decodeObjectBody(s.koa.get('Content-Type'), raw, undefined, { mediaTypes: protobufMediaTypes(s.upstreamAliases), decode: decodeDeleteOptionsProtobuf }) : {};
  // A field of the wrong type is the decoder's error (`json: cannot unmarshal number into Go struct
  // field Preconditions.preconditions.uid of type string`), 400 here where upstream answers 500.
  const typeError = body && typeof body === 'object' ? decodeObject(deleteOptions, body, false).typeError : undefined;
  if (typeError) throw newBadRequest(typeError);
  const q = s.query;
  const options: DeleteOptionsBody = {};
  const grace = intOrUndefined(q.get('gracePeriodSeconds') ?? body.gracePeriodSeconds, 'gracePeriodSeconds');
  if (grace !== undefined) options.gracePeriodSeconds = grace;
  // Upstream ValidateDeleteOptions: every problem in one 422 Invalid of DeleteOptions.
  const errs: FieldError[] = [];
  const policy = (q.get('propagationPolicy') ?? body.propagationPolicy) as string | undefined;
  const orphan = q.get('orphanDependents') ?? body.orphanDependents;
  if (orphan !== undefined && orphan !== null) options.orphanDependents = orphan === true || orphan === 'true';
  if (policy !== undefined && policy !== null) {
    if (options.orphanDependents !== undefined) errs.push(invalid('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'));
    if (POLICIES.includes(policy as (typeof POLICIES)[number])) options.propagationPolicy = policy as DeleteOptionsBody['propagationPolicy'];
    else errs.push(notSupported('propagationPolicy', policy, [...POLICIES, 'nil']));
  }
  const pre = body.preconditions as { uid?: string; resourceVersion?: string } | undefined;
  if (pre && (pre.uid !== undefined || pre.resourceVersion !== undefined)) options.preconditions = { ...pre };
  const dryRunValues = q.getAll('dryRun');
  if (Array.isArray(body.dryRun)) dryRunValues.push(...(body.dryRun as string[]));
  const dryRun = parseDryRun(dryRunValues, errs);
  throwIfInvalidOptions('DeleteOptions', errs);
  return { options, dryRun };
}

/** Serves `delete`: 200 with the object (kept, or as the kind answers) or a Success Status. */
export async function handleDelete(s: Scope): Promise<void> {
  const { options, dryRun } = await parseDeleteOptions(s);
  await s.admission.admit(s.req, admissionAttributes(s, 'DELETE', null, null, dryRun, options as Obj));
  const res = await s.store.delete(s.req, s.namespace, s.name, options, {
    dryRun,
    validate: async (old) => s.admission.validate(s.req, admissionAttributes(s, 'DELETE', null, old, dryRun, options as Obj)),
  });
  await writeObject(s, 200, res.body as Obj);
}

/** Serves `deletecollection`: the list of deleted (or now terminating) objects. */
export async function handleDeleteCollection(s: Scope): Promise<void> {
  const p = parseListParams(s.query, false, s.entry.selectableFields, s.watchList, s.entry.version?.fieldLabel, s.entry.kind.custom !== undefined);
  const { options, dryRun } = await parseDeleteOptions(s);
  const list = await s.store.deleteCollection(
    s.req,
    s.namespace,
    options,
    { predicate: newSelectionPredicate(p.label, p.field, s.store.strategy), resourceVersion: p.resourceVersion, resourceVersionMatch: p.resourceVersionMatch },
    {
      dryRun,
      validate: async (old) => {
        const attrs = { ...admissionAttributes(s, 'DELETE', null, old, dryRun, options as Obj), name: ((old.metadata as Obj)?.name as string) ?? '' };
        await s.admission.admit(s.req, attrs);
        await s.admission.validate(s.req, attrs);
      },
    },
  );
  await writeObject(s, 200, list);
}
