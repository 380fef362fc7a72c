/**
 * Table columns of the admission registration and API registration kinds (spec 000 § Table
 * representation), as upstream v1.30 prints them: webhook configurations — Name, Webhooks (their
 * count), Age; ValidatingAdmissionPolicy — Name, Validations (their count), ParamKind
 * (`<apiVersion>/<kind>` or `<unset>`), Age; ValidatingAdmissionPolicyBinding — Name,
 * PolicyName, ParamRef (`<namespace>/<name>`, `*\/<name>` without a namespace, the selector in
 * Go's struct notation, or `<unset>`), Age; APIService (the aggregator's own printer) — Name,
 * Service (`<namespace>/<name>` or `Local`), Available (the Available condition: `True`, else
 * `<status> (<reason>)` or `<status>`, `Unknown` without one), Age.
 */
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { list, obj, objs, str, strMap, type Obj } from '../core/v1/obj-access.js';
import { AGE_COLUMN, age, at, column, NAME_COLUMN, objectName } from './common.js';

/** Both webhook configurations. */
export const webhookConfigurationPrinter: TablePrinter = Object.freeze({
  columns: Object.freeze([NAME_COLUMN, column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks registered in this configuration'), AGE_COLUMN]),
  cells: (o: Obj, now: number) => [objectName(o), objs(o.webhooks).length, age(o, now)],
});

/** The ValidatingAdmissionPolicy printer. */
export const validatingAdmissionPolicyPrinter: TablePrinter = Object.freeze({
  columns: Object.freeze([
    NAME_COLUMN,
    column('Validations', 'integer', 'Validations indicates the number of validation rules defined in this configuration'),
    column('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy'),
    AGE_COLUMN,
  ]),
  cells: (o: Obj, now: number) => {
    const spec = at(o, 'spec');
    const pk = obj(spec.paramKind);
    return [objectName(o), objs(spec.validations).length, pk ? `${str(pk.apiVersion)}/${str(pk.kind)}` : '<unset>', age(o, now)];
  },
});

/**
 * Go's generated `String()` of a `metav1.LabelSelector`, which upstream's binding printer shows:
 * `&LabelSelector{MatchLabels:map[string]string{a: b,},MatchExpressions:[]LabelSelectorRequirement{…},}`.
 */
export function goLabelSelectorString(selector: Obj): string {
  const labels = strMap(selector.matchLabels);
  const pairs = Object.keys(labels)
    .sort()
    .map((k) => `${k}: ${labels[k]},`)
    .join('');
  const requirements = objs(selector.matchExpressions)
    .map((r) => `LabelSelectorRequirement{Key:${str(r.key)},Operator:${str(r.operator)},Values:[${list(r.values).map(str).join(' ')}],},`)
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${pairs}},MatchExpressions:[]LabelSelectorRequirement{${requirements}},}`;
}

/** The ValidatingAdmissionPolicyBinding printer. */
export const validatingAdmissionPolicyBindingPrinter: TablePrinter = Object.freeze({
  columns: Object.freeze([
    NAME_COLUMN,
    column('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to'),
    column('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param'),
    AGE_COLUMN,
  ]),
  cells: (o: Obj, now: number) => {
    const spec = at(o, 'spec');
    const ref = obj(spec.paramRef);
    let param = '<unset>';
    if (ref && str(ref.name) !== '') param = `${str(ref.namespace) || '*'}/${str(ref.name)}`;
    else if (ref && obj(ref.selector)) param = goLabelSelectorString(obj(ref.selector)!);
    return [objectName(o), str(spec.policyName), param, age(o, now)];
  },
});

/** The APIService printer (upstream kube-aggregator's table convertor). */
export const apiServicePrinter: TablePrinter = Object.freeze({
  columns: Object.freeze([
    NAME_COLUMN,
    column('Service', 'string', 'The reference to the service that hosts this API endpoint.'),
    column('Available', 'string', 'Whether this service is available.'),
    AGE_COLUMN,
  ]),
  cells: (o: Obj, now: number) => {
    const service = obj(at(o, 'spec').service);
    const available = objs(at(o, 'status').conditions).find((c) => c.type === 'Available');
    let status = 'Unknown';
    if (available) {
      status = str(available.status);
      if (status !== 'True' && str(available.reason) !== '') status = `${status} (${str(available.reason)})`;
    }
    return [objectName(o), service ? `${str(service.namespace)}/${str(service.name)}` : 'Local', status, age(o, now)];
  },
});
