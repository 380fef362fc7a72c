/**
 * The structures of flowcontrol/v1 FlowSchema (upstream v1.30 field order, JSON names,
 * `omitempty`, protobuf numbers and list markers). Which requests a schema matches: at least one
 * of its rules, each needing a matching subject and a matching resource or non-resource rule.
 * Default (`SetDefaults_FlowSchemaSpec`): `matchingPrecedence` 1000 when 0 or absent.
 */
import { boolean, field, int32, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import type { Schema } from '../../../apimachinery/schema/types.js';
import type { Obj } from '../../define.js';
import { conditionList, FLOWCONTROL, flowControlCondition } from './types.js';

/** Upstream `FlowSchemaDefaultMatchingPrecedence`. */
export const DEFAULT_MATCHING_PRECEDENCE = 1000;

const set = () => listOf(string, { listType: 'set' });
const atomic = (items: Schema) => listOf(items, { listType: 'atomic' });

/** The priority level a schema sends its requests to. */
export const priorityLevelConfigurationReference = struct(`${FLOWCONTROL}.PriorityLevelConfigurationReference`, {
  name: field(1, string, { omitEmpty: false, description: 'Name of the PriorityLevelConfiguration.' }),
});

/** How the flow of a request is told apart within its schema. */
export const flowDistinguisherMethod = struct(`${FLOWCONTROL}.FlowDistinguisherMethod`, {
  type: field(1, string, { omitEmpty: false, description: 'ByUser or ByNamespace.' }),
});

/** A subject of kind User. */
export const userSubject = struct(`${FLOWCONTROL}.UserSubject`, {
  name: field(1, string, { omitEmpty: false, description: 'The user name, or "*" for every user.' }),
});

/** A subject of kind Group. */
export const groupSubject = struct(`${FLOWCONTROL}.GroupSubject`, {
  name: field(1, string, { omitEmpty: false, description: 'The group name, or "*" for every group.' }),
});

/** A subject of kind ServiceAccount. */
export const serviceAccountSubject = struct(`${FLOWCONTROL}.ServiceAccountSubject`, {
  namespace: field(1, string, { omitEmpty: false, description: 'Namespace of the service accounts.' }),
  name: field(2, string, { omitEmpty: false, description: 'Name of the service account, or "*" for all of the namespace.' }),
});

/** Who sent a request: one of user, group or service account, named by `kind`. */
export const flowControlSubject = struct(`${FLOWCONTROL}.Subject`, {
  kind: field(1, string, { omitEmpty: false, description: 'User, Group or ServiceAccount.' }),
  user: field(2, userSubject),
  group: field(3, groupSubject),
  serviceAccount: field(4, serviceAccountSubject),
});

/** Matches resource requests by verb, group, resource and namespace (or cluster scope). */
export const resourcePolicyRule = struct(`${FLOWCONTROL}.ResourcePolicyRule`, {
  verbs: field(1, set(), { omitEmpty: false, description: 'Verbs; "*" alone for all.' }),
  apiGroups: field(2, set(), { omitEmpty: false, description: 'API groups; "*" alone for all.' }),
  resources: field(3, set(), { omitEmpty: false, description: 'Resources (with an optional subresource); "*" alone for all.' }),
  clusterScope: field(4, boolean, { description: 'Whether requests without a namespace match.' }),
  namespaces: field(5, set(), { omitEmpty: false, description: 'Namespaces; "*" alone for every namespace.' }),
});

/** Matches non-resource requests by verb and URL. */
export const nonResourcePolicyRule = struct(`${FLOWCONTROL}.NonResourcePolicyRule`, {
  verbs: field(1, set(), { omitEmpty: false, description: 'Verbs; "*" alone for all.' }),
  nonResourceURLs: field(6, set(), { omitEmpty: false, description: 'URL paths, with an optional trailing "/*"; "*" alone for all.' }),
});

/** One rule of a schema: subjects and what they ask for. */
export const policyRulesWithSubjects = struct(`${FLOWCONTROL}.PolicyRulesWithSubjects`, {
  subjects: field(1, atomic(flowControlSubject), { omitEmpty: false, description: 'Who the rule matches; at least one.' }),
  resourceRules: field(2, atomic(resourcePolicyRule), { description: 'Resource requests the rule matches.' }),
  nonResourceRules: field(3, atomic(nonResourcePolicyRule), { description: 'Non-resource requests the rule matches.' }),
});

/** `SetDefaults_FlowSchemaSpec`: a zero `matchingPrecedence` becomes 1000. */
function defaultFlowSchemaSpec(spec: Obj): void {
  if (spec.matchingPrecedence === undefined || spec.matchingPrecedence === null || spec.matchingPrecedence === 0) spec.matchingPrecedence = DEFAULT_MATCHING_PRECEDENCE;
}

/** What a FlowSchema matches and where it sends the requests. */
export const flowSchemaSpec = struct(
  `${FLOWCONTROL}.FlowSchemaSpec`,
  {
    priorityLevelConfiguration: field(1, priorityLevelConfigurationReference, { default: {}, omitEmpty: false, description: 'The priority level of matching requests.' }),
    matchingPrecedence: field(2, int32, { omitEmpty: false, description: 'Lower values are considered first; 1 to 10000, default 1000.' }),
    distinguisherMethod: field(3, flowDistinguisherMethod, { description: 'How flows are told apart; absent: one flow.' }),
    rules: field(4, atomic(policyRulesWithSubjects), { description: 'The schema matches a request when one rule does.' }),
  },
  { defaulter: defaultFlowSchemaSpec, description: 'What a FlowSchema matches and where it sends the requests.' },
);

/** A condition of a FlowSchema (`Dangling`). */
export const flowSchemaCondition = flowControlCondition(`${FLOWCONTROL}.FlowSchemaCondition`);

/** The observed state of a FlowSchema. */
export const flowSchemaStatus = struct(`${FLOWCONTROL}.FlowSchemaStatus`, {
  conditions: field(1, conditionList(flowSchemaCondition), { description: 'Current conditions of the schema.' }),
});
