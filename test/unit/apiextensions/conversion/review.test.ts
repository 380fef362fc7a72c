import { expect } from 'chai';
import { APIEXTENSIONS_GROUP, conversionReviewVersion, convertedObject, decodeConversionResponse, encodeConversionReview } from '../../../../lib/apiextensions/conversion/review.js';
import { upstreamAlias } from '../../../../lib/apis/vendor.js';

const G = APIEXTENSIONS_GROUP;
const review = (response: unknown, apiVersion = `${G}/v1`, kind = 'ConversionReview') => ({ apiVersion, kind, response });
const ok = (extra: Record<string, unknown> = {}) => ({ uid: 'u1', result: { status: 'Success' }, convertedObjects: [{ kind: 'W' }], ...extra });

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('apiextensions conversion: ConversionReview', () => {
  it('sends the vendor group, the uid, the desired version and the objects', () => {
    const text = encodeConversionReview('v1', 'u1', 'example.com/v2', [{ kind: 'W' }]);
    expect(JSON.parse(text)).to.deep.equal({ kind: 'ConversionReview', apiVersion: `${G}/v1`, request: { uid: 'u1', desiredAPIVersion: 'example.com/v2', objects: [{ kind: 'W' }] } });
  });

  it('picks the first version it speaks among conversionReviewVersions', () => {
    expect(conversionReviewVersion(['v2', 'v1beta1', 'v1'])).to.equal('v1beta1');
    expect(conversionReviewVersion(['v1'])).to.equal('v1');
    expect(message(() => conversionReviewVersion(['v2']))).to.equal('no supported conversion review versions');
    expect(message(() => conversionReviewVersion(undefined))).to.equal('no supported conversion review versions');
  });

  it('accepts an answer in the vendor group or its upstream alias', () => {
    expect(decodeConversionResponse('v1', 'u1', review(ok()))).to.deep.equal([{ kind: 'W' }]);
    expect(decodeConversionResponse('v1', 'u1', review(ok(), `${upstreamAlias(G)}/v1`))).to.deep.equal([{ kind: 'W' }]);
  });

  it('takes a v1beta1 answer to a v1beta1 review without checking its uid', () => {
    expect(decodeConversionResponse('v1beta1', 'u1', review(ok({ uid: 'other' }), `${G}/v1beta1`))).to.deep.equal([{ kind: 'W' }]);
  });

  it('reads absent convertedObjects as none', () => {
    expect(decodeConversionResponse('v1', 'u1', review({ uid: 'u1', result: { status: 'Success' } }))).to.deep.equal([]);
  });

  const refusals: Array<[string, unknown, string]> = [
    ['a uid of another request', review(ok({ uid: 'u2' })), 'expected response.uid="u1", got "u2"'],
    ['a missing uid', review(ok({ uid: undefined })), 'expected response.uid="u1", got ""'],
    ['a failure with a message', review({ uid: 'u1', result: { status: 'Failure', message: 'cannot convert' } }), 'cannot convert'],
    ['a failure without a message', review({ uid: 'u1', result: { status: 'Failure' } }), "response.result.status was 'Failure', not 'Success'"],
    ['no result', review({ uid: 'u1', convertedObjects: [] }), "response.result.status was '', not 'Success'"],
    ['no response', review(undefined), 'no response provided'],
    ['a v1beta1 answer to a v1 review', review(ok(), `${G}/v1beta1`), `expected webhook response of ${G}/v1, Kind=ConversionReview, got ${G}/v1beta1, Kind=ConversionReview`],
    ['another kind', review(ok(), `${G}/v1`, 'AdmissionReview'), `no kind "AdmissionReview" is registered for version "${G}/v1"`],
    ['another group', review(ok(), 'example.com/v1'), 'no kind "ConversionReview" is registered for version "example.com/v1"'],
    ['no kind', { apiVersion: `${G}/v1` }, `Object 'Kind' is missing in '{"apiVersion":"${G}/v1"}'`],
    ['convertedObjects that are not a list', review(ok({ convertedObjects: {} })), 'json: cannot unmarshal object into Go struct field ConversionReview.response.convertedObjects of type []runtime.RawExtension'],
    ['a uid that is not a string', review(ok({ uid: 7 })), 'json: cannot unmarshal number into Go struct field ConversionReview.response.uid of type types.UID'],
  ];
  for (const [name, body, expected] of refusals) {
    it(`refuses ${name}`, () => {
      expect(message(() => decodeConversionResponse('v1', 'u1', body))).to.equal(expected);
    });
  }

  it('refuses converted objects that are not objects with a kind', () => {
    expect(message(() => convertedObject(3))).to.equal('json: cannot unmarshal number into Go value of type map[string]interface {}');
    expect(message(() => convertedObject({ apiVersion: 'example.com/v2' }))).to.equal(`Object 'Kind' is missing in '{"apiVersion":"example.com/v2"}'`);
  });
});
