import { expect } from 'chai';
import { aggregate, limitRequestRatioConstraint, maxConstraint, maxRequestConstraint, minConstraint } from '../../../../lib/admission/plugins/limit-ranger/constraints.js';
import { resourceList } from '../../../../lib/admission/plugins/limit-ranger/resources.js';
import { Quantity } from '../../../../lib/apimachinery/quantity.js';

const q = (s: string) => Quantity.parse(s);
const rl = (o: Record<string, string>) => resourceList(o);

describe('LimitRanger constraints (upstream v1.30 messages)', () => {
  it('min: a request is required and must reach the minimum, a limit too when given', () => {
    expect(minConstraint('Container', 'cpu', q('100m'), rl({}), rl({}))).to.equal('minimum cpu usage per Container is 100m.  No request is specified');
    expect(minConstraint('Container', 'cpu', q('100m'), rl({ cpu: '50m' }), rl({}))).to.equal('minimum cpu usage per Container is 100m, but request is 50m');
    expect(minConstraint('Pod', 'memory', q('1Gi'), rl({ memory: '1Gi' }), rl({ memory: '512Mi' }))).to.equal(
      'minimum memory usage per Pod is 1Gi, but limit is 512Mi',
    );
    expect(minConstraint('Container', 'cpu', q('100m'), rl({ cpu: '0.1' }), rl({ cpu: '1' }))).to.equal(undefined);
  });

  it('max: a limit is required and may not exceed the maximum, nor may a request', () => {
    expect(maxConstraint('Container', 'cpu', q('1'), rl({}), rl({}))).to.equal('maximum cpu usage per Container is 1.  No limit is specified');
    expect(maxConstraint('Container', 'cpu', q('1'), rl({}), rl({ cpu: '2' }))).to.equal('maximum cpu usage per Container is 1, but limit is 2');
    expect(maxConstraint('Container', 'cpu', q('1'), rl({ cpu: '1500m' }), rl({ cpu: '1' }))).to.equal('maximum cpu usage per Container is 1, but request is 1500m');
    expect(maxConstraint('Container', 'cpu', q('1'), rl({ cpu: '1' }), rl({ cpu: '1000m' }))).to.equal(undefined);
  });

  it('compares at millis precision, rounding up as upstream does', () => {
    expect(minConstraint('Container', 'cpu', q('1m'), rl({ cpu: '0.5m' }), rl({}))).to.equal(undefined);
    expect(maxConstraint('Container', 'cpu', q('1m'), rl({}), rl({ cpu: '1.5m' }))).to.equal('maximum cpu usage per Container is 1m, but limit is 1500u');
  });

  it('compares whole values beyond the millis range', () => {
    expect(maxConstraint('Container', 'storage', q('9E'), rl({}), rl({ storage: '8E' }))).to.equal(undefined);
    expect(maxConstraint('Container', 'storage', q('8E'), rl({}), rl({ storage: '9E' }))).to.equal('maximum storage usage per Container is 8E, but limit is 9E');
  });

  it('max for claims looks at requests only', () => {
    expect(maxRequestConstraint('PersistentVolumeClaim', 'storage', q('2Gi'), rl({}))).to.equal(
      'maximum storage usage per PersistentVolumeClaim is 2Gi.  No request is specified',
    );
    expect(maxRequestConstraint('PersistentVolumeClaim', 'storage', q('2Gi'), rl({ storage: '3Gi' }))).to.equal(
      'maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 3Gi',
    );
    expect(maxRequestConstraint('PersistentVolumeClaim', 'storage', q('2Gi'), rl({ storage: '2Gi' }))).to.equal(undefined);
  });

  it('maxLimitRequestRatio: needs a non-zero request and limit, shows the ratio as %f', () => {
    expect(limitRequestRatioConstraint('Container', 'cpu', q('2'), rl({}), rl({ cpu: '1' }))).to.equal(
      'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0',
    );
    expect(limitRequestRatioConstraint('Container', 'cpu', q('2'), rl({ cpu: '1' }), rl({ cpu: '0' }))).to.equal(
      'cpu max limit to request ratio per Container is 2, but no limit is specified or limit is 0',
    );
    expect(limitRequestRatioConstraint('Container', 'cpu', q('2'), rl({ cpu: '300m' }), rl({ cpu: '1' }))).to.equal(
      'cpu max limit to request ratio per Container is 2, but provided ratio is 3.333333',
    );
    expect(limitRequestRatioConstraint('Container', 'cpu', q('1500m'), rl({ cpu: '1' }), rl({ cpu: '1500m' }))).to.equal(undefined);
    expect(limitRequestRatioConstraint('Container', 'cpu', q('1500m'), rl({ cpu: '1' }), rl({ cpu: '1501m' }))).to.equal(
      'cpu max limit to request ratio per Container is 1500m, but provided ratio is 1.501000',
    );
  });

  it('aggregates as upstream: one message bare, several bracketed, repeats dropped', () => {
    expect(aggregate([])).to.equal(undefined);
    expect(aggregate(['a'])).to.equal('a');
    expect(aggregate(['a', 'a'])).to.equal('a');
    expect(aggregate(['a', 'b', 'a'])).to.equal('[a, b]');
  });
});
