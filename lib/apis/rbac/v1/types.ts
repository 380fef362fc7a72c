/**
 * Types shared by the RBAC kinds of `rbac.authorization.<vendor>/v1`: PolicyRule, Subject,
 * RoleRef, AggregationRule (upstream field structure, protobuf numbers and markers).
 * spec 001 § RBAC mode.
 */
import { enumOf, field, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import type { Obj } from '../../define.js';
import { labelSelector } from '../../meta/v1/types.js';
import { vendorGroup } from '../../vendor.js';

/** The API group of the RBAC kinds. */
export const RBAC_GROUP = vendorGroup('rbac.authorization');

/** Subject kinds, in upstream's order. */
export const SUBJECT_KINDS = ['ServiceAccount', 'User', 'Group'];

const RBAC = 'api.rbac.v1';
const atomicStrings = () => listOf(string, { listType: 'atomic' });

/** One permission: verbs on resources (or non-resource URLs). */
export const policyRule = struct(`${RBAC}.PolicyRule`, {
  verbs: field(1, atomicStrings(), { required: true, omitEmpty: false, description: 'Verbs the rule allows; "*" for all.' }),
  apiGroups: field(2, atomicStrings(), { description: 'API groups of the resources; "" is the core group, "*" all.' }),
  resources: field(3, atomicStrings(), { description: 'Resources (or resource/subresource); "*" for all.' }),
  resourceNames: field(4, atomicStrings(), { description: 'Object names the rule is limited to; empty for all.' }),
  nonResourceURLs: field(5, atomicStrings(), { description: 'Non-resource paths, with an optional trailing "*".' }),
});

/** Subjects of User and Group kind belong to the RBAC group; ServiceAccounts to the core group. */
export function defaultSubject(subject: Obj): void {
  if (subject.apiGroup !== undefined && subject.apiGroup !== '') return;
  if (subject.kind === 'ServiceAccount') subject.apiGroup = '';
  else if (subject.kind === 'User' || subject.kind === 'Group') subject.apiGroup = RBAC_GROUP;
}

/** A user, group or service account a binding grants a role to. */
export const subject = struct(
  `${RBAC}.Subject`,
  {
    kind: field(1, enumOf(...SUBJECT_KINDS), { required: true, omitEmpty: false, description: 'User, Group or ServiceAccount.' }),
    apiGroup: field(2, string),
    name: field(3, string, { required: true, omitEmpty: false }),
    namespace: field(4, string, { description: 'Namespace of a ServiceAccount subject.' }),
  },
  { mapType: 'atomic', defaulter: defaultSubject },
);

/** The role a binding grants. */
export const roleRef = struct(
  `${RBAC}.RoleRef`,
  {
    apiGroup: field(1, string, { required: true, omitEmpty: false, default: RBAC_GROUP }),
    kind: field(2, string, { required: true, omitEmpty: false, description: 'Role or ClusterRole.' }),
    name: field(3, string, { required: true, omitEmpty: false }),
  },
  { mapType: 'atomic' },
);

/** How a ClusterRole collects the rules of other ClusterRoles. */
export const aggregationRule = struct(`${RBAC}.AggregationRule`, {
  clusterRoleSelectors: field(1, listOf(labelSelector, { listType: 'atomic' }), {
    description: 'Selectors of the ClusterRoles whose rules are combined into this one.',
  }),
});
