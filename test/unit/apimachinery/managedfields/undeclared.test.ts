import { expect } from 'chai';
import { newUndeclaredFields, undeclaredFields } from '../../../../lib/apimachinery/managedfields/index.js';
import { deployment } from '../../../../lib/apis/apps/v1/index.js';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';

describe('managedfields/undeclared: fields an apply configuration names that the schema does not declare', () => {
  it('names each as upstream prints its path: list items by key, map keys as fields, in document order', () => {
    const config = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labelz: { a: 'b' }, labels: { 'any-key': 'x' } },
      spec: {
        replicas: 1,
        replica: 2,
        template: {
          spec: {
            containers: [
              { name: 'app', imagee: 'x', ports: [{ containerPort: 80, protocol: 'TCP', nam: 'http' }] },
              { name: 'side', env: [{ name: 'A', valu: '1' }] },
            ],
          },
        },
      },
    };
    expect(undeclaredFields(deployment.schema, config)).to.deep.equal([
      '.metadata.labelz',
      '.spec.replica',
      '.spec.template.spec.containers[name="app"].imagee',
      '.spec.template.spec.containers[name="app"].ports[containerPort=80,protocol="TCP"].nam',
      '.spec.template.spec.containers[name="side"].env[name="A"].valu',
    ]);
  });

  it('finds none in a declared configuration, and does not walk values of the wrong type or items without their key', () => {
    expect(undeclaredFields(configMap.schema, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } })).to.deep.equal([]);
    expect(undeclaredFields(deployment.schema, { spec: { template: 'x', selector: { matchLabels: { a: 'b' } } } })).to.deep.equal([]);
    expect(undeclaredFields(deployment.schema, { spec: { template: { spec: { containers: [{ image: 'no-name', bogus: 1 }] } } } })).to.deep.equal([]);
  });

  it('the 400 in upstream\'s words: one line alone, several under "errors:"', () => {
    const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' } };
    const one = newUndeclaredFields(config, ['.wat']);
    expect([one.status.code, one.status.reason, one.status.message]).to.deep.equal([
      400,
      'BadRequest',
      'failed to create typed patch object (ns/c; /v1, Kind=ConfigMap): .wat: field not declared in schema',
    ]);
    const two = newUndeclaredFields({ ...config, metadata: { name: 'c' } }, ['.a', '.b']);
    expect(two.status.message).to.equal(
      'failed to create typed patch object (/c; /v1, Kind=ConfigMap): errors:\n  .a: field not declared in schema\n  .b: field not declared in schema',
    );
  });
});
