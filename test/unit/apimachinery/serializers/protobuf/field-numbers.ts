/**
 * The protobuf field numbers of every served kind, as text for the golden file
 * test/fixtures/protobuf/field-numbers.txt (spec 001 § API versions and groups: every served
 * version in protobuf under the same schema rules as JSON; the numbers never change). The kinds:
 * the stored ones (kinds.ts ALL_KINDS), the other served versions of them (flowcontrol v1beta3,
 * admissionregistration v1beta1 and v1alpha1, autoscaling v1, events v1) and the kinds of
 * create-only and subresource endpoints.
 */
import { type Schema, type StructSchema, embeddingPath, structFields } from '../../../../../lib/apimachinery/schema/types.js';
import { admissionregistrationV1alpha1Kinds } from '../../../../../lib/apis/admissionregistration/v1alpha1/index.js';
import { admissionregistrationV1beta1Kinds } from '../../../../../lib/apis/admissionregistration/v1beta1/index.js';
import { authenticationV1Kinds } from '../../../../../lib/apis/authentication/v1/index.js';
import { authenticationV1alpha1Kinds } from '../../../../../lib/apis/authentication/v1alpha1/index.js';
import { authenticationV1beta1Kinds } from '../../../../../lib/apis/authentication/v1beta1/index.js';
import { authorizationV1Kinds } from '../../../../../lib/apis/authorization/v1/index.js';
import { scale } from '../../../../../lib/apis/autoscaling/v1/scale.js';
import { binding } from '../../../../../lib/apis/core/v1/binding.js';
import type { KindDefinition } from '../../../../../lib/apis/define.js';
import { flowcontrolV1beta3Kinds } from '../../../../../lib/apis/flowcontrol/v1beta3/index.js';
import { eviction } from '../../../../../lib/apis/policy/v1/eviction.js';
import { statusSchema } from '../../../../../lib/apimachinery/serializers/protobuf/index.js';
import { ALL_KINDS } from './kinds.js';

/** Every kind the server answers in protobuf, each once. */
export const SERVED_KINDS: readonly KindDefinition[] = [
  ...ALL_KINDS,
  ...flowcontrolV1beta3Kinds,
  ...admissionregistrationV1beta1Kinds,
  ...admissionregistrationV1alpha1Kinds,
  ...authenticationV1Kinds,
  ...authenticationV1beta1Kinds,
  ...authenticationV1alpha1Kinds,
  ...authorizationV1Kinds,
  binding,
  eviction,
  scale,
];

/** The wire type of one value of `s` (`string`, `int32`, `struct api.core.v1.PodSpec`, `list<…>`, `map<…>`). */
function typeOf(s: Schema): string {
  switch (s.type) {
    case 'integer':
      return s.format;
    case 'struct':
      return `struct ${s.id}`;
    case 'list':
      return `list<${typeOf(s.items)}>`;
    case 'map':
      return `map<${typeOf(s.values)}>`;
    default:
      return s.type;
  }
}

/**
 * The golden text: a `kind` line per served kind and its list (`kind <apiVersion> <Kind> = <struct id>`),
 * then every struct reachable from them and from Status, sorted by id, each field as
 * `<struct id> <json name> = <number> <type>` with the inline messages that carry it
 * (`inline 1 api.core.v1.LocalObjectReference`). Fields without a number (apiVersion, kind) are left out.
 * @throws Error when two different structs share an id (one of them would go unpinned).
 */
export function fieldNumbersText(kinds: readonly KindDefinition[] = SERVED_KINDS): string {
  const lines: string[] = [];
  const structs = new Map<string, StructSchema>();
  const visit = (s: Schema): void => {
    if (s.type === 'list') return visit(s.items);
    if (s.type === 'map') return visit(s.values);
    if (s.type !== 'struct' || structs.get(s.id) === s) return;
    const known = structs.get(s.id);
    if (known !== undefined) {
      if (fieldLines(known).join('\n') !== fieldLines(s).join('\n')) throw new Error(`two different structs named ${s.id}: give each its own id so both are pinned`);
      return;
    }
    structs.set(s.id, s);
    for (const f of Object.values(structFields(s))) visit(f.schema);
  };
  for (const k of kinds) {
    lines.push(`kind ${k.apiVersion} ${k.kind} = ${k.schema.id}`, `kind ${k.apiVersion} ${k.listKind} = ${k.listSchema.id}`);
    visit(k.schema);
    visit(k.listSchema);
  }
  visit(statusSchema);
  lines.sort();
  for (const id of [...structs.keys()].sort()) lines.push(...fieldLines(structs.get(id)!));
  return `${lines.join('\n')}\n`;
}

/** The golden lines of the numbered fields of `s`, sorted. */
function fieldLines(s: StructSchema): string[] {
  return Object.entries(structFields(s))
    .filter(([, f]) => f.proto !== 0)
    .map(([name, f]) => `${s.id} ${name} = ${f.proto} ${typeOf(f.schema)}${embeddingPath(f).map((e) => ` inline ${e.proto} ${e.id}`).join('')}`)
    .sort();
}
