/**
 * The protobuf form of the Go-inline rule structs: RuleWithOperations carries its Rule as a
 * nested message at 2, and NamedRuleWithOperations its RuleWithOperations at 2 — so the Rule of a
 * named rule is a message inside a message, as upstream's generated.proto declares it.
 */
import { expect } from 'chai';
import { decodeMessage } from '../../../../../lib/apimachinery/serializers/protobuf/reader.js';
import { encodeMessage } from '../../../../../lib/apimachinery/serializers/protobuf/writer.js';
import { namedRuleWithOperations, ruleWithOperations } from '../../../../../lib/apis/admissionregistration/v1/types.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
/** `field: len-delimited` of `body` (hex), as gogo writes it. */
const msg = (field: number, body: string) => `${((field << 3) | 2).toString(16).padStart(2, '0')}${(body.length / 2).toString(16).padStart(2, '0')}${body}`;
const str = (field: number, s: string) => msg(field, Buffer.from(s).toString('hex'));

const RULE = str(1, 'apps') + str(2, 'v1') + str(3, 'deployments') + str(4, '*');

describe('admissionregistration/v1 rules on the wire (upstream generated.proto)', () => {
  it('RuleWithOperations: operations at 1, the inline Rule as a message at 2', () => {
    const rule = { operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], scope: '*' };
    const bytes = encodeMessage(ruleWithOperations, rule);
    expect(hex(bytes)).to.equal(str(1, 'CREATE') + msg(2, RULE));
    expect(decodeMessage(ruleWithOperations, bytes)).to.deep.equal(rule);
  });

  it('NamedRuleWithOperations: resourceNames at 1, RuleWithOperations at 2 holding the Rule at 2', () => {
    const rule = { resourceNames: ['web'], operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], scope: '*' };
    const bytes = encodeMessage(namedRuleWithOperations, rule);
    expect(hex(bytes)).to.equal(str(1, 'web') + msg(2, str(1, 'CREATE') + msg(2, RULE)));
    expect(decodeMessage(namedRuleWithOperations, bytes)).to.deep.equal(rule);
  });

  it('writes a nested inline message only when one of its members is set', () => {
    expect(hex(encodeMessage(namedRuleWithOperations, { resourceNames: ['web'], operations: ['DELETE'] }))).to.equal(str(1, 'web') + msg(2, str(1, 'DELETE')));
    expect(hex(encodeMessage(namedRuleWithOperations, { resourceNames: ['web'] }))).to.equal(str(1, 'web'));
  });
});
