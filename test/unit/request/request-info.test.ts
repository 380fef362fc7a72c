import { expect } from 'chai';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { parseRequestInfo, queryBool, type RequestInfo } from '../../../lib/request/request-info.js';
import { covers } from '../../conformance/covers.js';

const RBAC = vendorGroup('rbac.authorization');

/** Parses `METHOD path?query`. */
function info(method: string, url: string): RequestInfo {
  const [path, query = ''] = url.split('?') as [string, string?];
  return parseRequestInfo(method, path, new URLSearchParams(query));
}

type Expected = Pick<RequestInfo, 'verb' | 'apiPrefix' | 'apiGroup' | 'apiVersion' | 'namespace' | 'resource' | 'subresource' | 'name'>;

/** [method, url, verb, apiPrefix, apiGroup, apiVersion, namespace, resource, subresource, name]. */
type Row = [string, string, string, string, string, string, string, string, string, string];
const expected = (r: Row): Expected => ({
  verb: r[2],
  apiPrefix: r[3],
  apiGroup: r[4],
  apiVersion: r[5],
  namespace: r[6],
  resource: r[7],
  subresource: r[8],
  name: r[9],
});
const attrs = (i: RequestInfo): Expected => ({
  verb: i.verb,
  apiPrefix: i.apiPrefix,
  apiGroup: i.apiGroup,
  apiVersion: i.apiVersion,
  namespace: i.namespace,
  resource: i.resource,
  subresource: i.subresource,
  name: i.name,
});

/** The spec 000 § Verb mapping row of a row's HTTP method, as a title tag. */
const verbRow = (r: Row): string => covers(`000 § Verb mapping › ${r[0] === 'GET' || r[0] === 'HEAD' ? 'GET or HEAD' : r[0]}`);

function table(title: string, rows: Row[], tag: (row: Row) => string = () => ''): void {
  describe(title, () => {
    for (const row of rows) {
      it(`${row[0]} ${row[1]} → ${row[2]} ${[row[6], row[7], row[9], row[8]].filter(Boolean).join('/')}${tag(row)}`, () => {
        const i = info(row[0], row[1]);
        expect(i.isResourceRequest).to.equal(true);
        expect(attrs(i)).to.deep.equal(expected(row));
      });
    }
  });
}

describe('request-info: resource requests (spec 000 § Verb mapping, § Resource operations)', () => {
  table('path shapes', [
    ['GET', '/api/v1/namespaces', 'list', 'api', '', 'v1', '', 'namespaces', '', ''],
    ['GET', '/api/v1/namespaces/other', 'get', 'api', '', 'v1', 'other', 'namespaces', '', 'other'],
    ['GET', '/api/v1/namespaces/other/pods', 'list', 'api', '', 'v1', 'other', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods/foo', 'get', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
    ['GET', '/api/v1/pods', 'list', 'api', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/nodes/n1', 'get', 'api', '', 'v1', '', 'nodes', '', 'n1'],
    ['GET', '/apis/apps/v1/namespaces/ns/deployments', 'list', 'apis', 'apps', 'v1', 'ns', 'deployments', '', ''],
    ['GET', '/apis/apps/v1/namespaces/ns/deployments/d', 'get', 'apis', 'apps', 'v1', 'ns', 'deployments', '', 'd'],
    ['GET', '/apis/apps/v1/deployments', 'list', 'apis', 'apps', 'v1', '', 'deployments', '', ''],
    ['GET', `/apis/${RBAC}/v1/clusterroles/admin`, 'get', 'apis', RBAC, 'v1', '', 'clusterroles', '', 'admin'],
    ['GET', '/apis/extensions/v1beta3/namespaces/other/pods', 'list', 'apis', 'extensions', 'v1beta3', 'other', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods/foo/', 'get', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
  ]);

  table('subresources', [
    ['GET', '/api/v1/namespaces/other/pods/foo/status', 'get', 'api', '', 'v1', 'other', 'pods', 'status', 'foo'],
    ['PUT', '/api/v1/namespaces/other/pods/foo/status', 'update', 'api', '', 'v1', 'other', 'pods', 'status', 'foo'],
    ['GET', '/api/v1/namespaces/other/pods/foo/proxy/subpath', 'get', 'api', '', 'v1', 'other', 'pods', 'proxy', 'foo'],
    ['PATCH', '/apis/apps/v1/namespaces/ns/deployments/d/scale', 'patch', 'apis', 'apps', 'v1', 'ns', 'deployments', 'scale', 'd'],
    ['PUT', '/api/v1/nodes/n1/status', 'update', 'api', '', 'v1', '', 'nodes', 'status', 'n1'],
    ['PUT', '/api/v1/namespaces/other/status', 'update', 'api', '', 'v1', 'other', 'namespaces', 'status', 'other'],
    ['PUT', '/api/v1/namespaces/other/finalize', 'update', 'api', '', 'v1', 'other', 'namespaces', 'finalize', 'other'],
    ['GET', '/api/v1/namespaces/other/status', 'get', 'api', '', 'v1', 'other', 'namespaces', 'status', 'other'],
  ]);

  table('verbs per method', [
    ['POST', '/api/v1/namespaces/other/pods', 'create', 'api', '', 'v1', 'other', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods/foo', 'get', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
    ['HEAD', '/api/v1/namespaces/other/pods/foo', 'get', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
    ['HEAD', '/api/v1/pods', 'list', 'api', '', 'v1', '', 'pods', '', ''],
    ['PUT', '/api/v1/namespaces/other/pods/foo', 'update', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
    ['PATCH', '/api/v1/namespaces/other/pods/foo', 'patch', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
    ['DELETE', '/api/v1/namespaces/other/pods/foo', 'delete', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
  ], verbRow);

  table('deletecollection: DELETE on a collection', [
    ['DELETE', '/api/v1/nodes', 'deletecollection', 'api', '', 'v1', '', 'nodes', '', ''],
    ['DELETE', '/api/v1/namespaces', 'deletecollection', 'api', '', 'v1', '', 'namespaces', '', ''],
    ['DELETE', '/api/v1/namespaces/other/pods', 'deletecollection', 'api', '', 'v1', 'other', 'pods', '', ''],
    ['DELETE', '/apis/extensions/v1/namespaces/other/pods', 'deletecollection', 'apis', 'extensions', 'v1', 'other', 'pods', '', ''],
  ], verbRow);

  table('list, get and watch: the watch parameter (any value but 0/false, any case, means watch)', [
    ['GET', '/api/v1/pods?watch=1', 'watch', 'api', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/pods?watch=true', 'watch', 'api', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/pods?watch=True', 'watch', 'api', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/pods?watch=', 'watch', 'api', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/pods?watch=yes', 'watch', 'api', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/pods?watch=f', 'watch', 'api', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/pods?watch=0', 'list', 'api', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/pods?watch=false', 'list', 'api', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/pods?watch=FALSE', 'list', 'api', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods?watch=1', 'watch', 'api', '', 'v1', 'other', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods?watch=0', 'list', 'api', '', 'v1', 'other', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods/foo?watch=true', 'watch', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
    ['GET', '/api/v1/namespaces/other/pods/foo?watch=false', 'get', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
    ['POST', '/api/v1/namespaces/other/pods?watch=true', 'create', 'api', '', 'v1', 'other', 'pods', '', ''],
  ]);

  table('legacy /watch/ prefix', [
    ['GET', '/api/v1/watch/pods', 'watch', 'api', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/watch/namespaces/other/pods', 'watch', 'api', '', 'v1', 'other', 'pods', '', ''],
    ['GET', '/api/v1/watch/namespaces/other/pods/foo', 'watch', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
    ['GET', '/apis/apps/v1/watch/namespaces/ns/deployments', 'watch', 'apis', 'apps', 'v1', 'ns', 'deployments', '', ''],
    ['GET', '/api/v1/watch/namespaces', 'watch', 'api', '', 'v1', '', 'namespaces', '', ''],
  ]);

  table('the legacy /watch/ prefix sets the verb whatever the method (upstream specialVerbs)', [
    ['POST', '/api/v1/watch/namespaces/other/pods', 'watch', 'api', '', 'v1', 'other', 'pods', '', ''],
    ['DELETE', '/api/v1/watch/namespaces/other/pods/foo', 'watch', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
  ]);

  table('the legacy /proxy/ prefix: verb proxy, no subresource', [
    ['GET', '/api/v1/proxy/namespaces/other/pods/foo', 'proxy', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
    ['GET', '/api/v1/proxy/namespaces/other/pods/foo/sub/path', 'proxy', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
    ['POST', '/api/v1/proxy/nodes/n1/stats', 'proxy', 'api', '', 'v1', '', 'nodes', '', 'n1'],
  ]);

  table('another method on a resource path: verb empty (as upstream; only authorizers granting every verb allow it)', [
    ['OPTIONS', '/api/v1/namespaces/other/pods', '', 'api', '', 'v1', 'other', 'pods', '', ''],
    ['CONNECT', '/api/v1/namespaces/other/pods/foo', '', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
  ]);

  table('the path as Go decodes it (URL.Path): escapes decoded before splitting, %2F a separator', [
    ['GET', '/api/v1/namespaces/other/pods/%66oo', 'get', 'api', '', 'v1', 'other', 'pods', '', 'foo'],
    ['GET', '/api/v1/namespaces/other/pods/foo%2Fstatus', 'get', 'api', '', 'v1', 'other', 'pods', 'status', 'foo'],
    ['GET', '/api/v1/namespaces/other/pods/%zz', 'get', 'api', '', 'v1', 'other', 'pods', '', '%zz'],
  ]);

  table('empty segments inside the path stay in place (upstream splitPath), so no segment shifts into another attribute', [
    ['GET', '/api/v1//pods', 'get', 'api', '', 'v1', '', '', '', 'pods'],
    ['GET', '/api/v1/namespaces//pods', 'list', 'api', '', 'v1', '', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods//status', 'list', 'api', '', 'v1', 'other', 'pods', 'status', ''],
    ['GET', '//api/v1/pods//', 'list', 'api', '', 'v1', '', 'pods', '', ''],
  ]);

  table('name from a fieldSelector pinning metadata.name (list and watch)', [
    ['GET', '/apis/group/version/resource?fieldSelector=metadata.name=name1', 'list', 'apis', 'group', 'version', '', 'resource', '', 'name1'],
    ['GET', '/apis/group/version/resource?watch=true&fieldSelector=metadata.name=name1', 'watch', 'apis', 'group', 'version', '', 'resource', '', 'name1'],
    ['GET', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dcm', 'list', 'api', '', 'v1', 'ns', 'configmaps', '', 'cm'],
    ['GET', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3D%3Dcm', 'list', 'api', '', 'v1', 'ns', 'configmaps', '', 'cm'],
    ['GET', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.namespace%3Dns,metadata.name%3Dcm', 'list', 'api', '', 'v1', 'ns', 'configmaps', '', 'cm'],
    ['GET', '/apis/group/version/resource?fieldSelector=foo=bar', 'list', 'apis', 'group', 'version', '', 'resource', '', ''],
    ['GET', '/apis/group/version/resource?fieldSelector=metadata.name!%3Dx', 'list', 'apis', 'group', 'version', '', 'resource', '', ''],
    ['GET', '/apis/group/version/resource?fieldSelector=metadata.name=name1,foo', 'list', 'apis', 'group', 'version', '', 'resource', '', ''],
    ['GET', '/apis/group/version/resource?fieldSelector=metadata.name=name1,foo&watch=true', 'watch', 'apis', 'group', 'version', '', 'resource', '', ''],
    ['GET', '/apis/group/version/resource?fieldSelector=metadata.name=name1,foo&watch=false', 'list', 'apis', 'group', 'version', '', 'resource', '', ''],
    ['GET', '/apis/group/version/resource?fieldSelector=metadata.name%3Da%2Fb', 'list', 'apis', 'group', 'version', '', 'resource', '', ''],
    ['GET', '/apis/group/version/resource?fieldSelector=metadata.name%3Da%25b', 'list', 'apis', 'group', 'version', '', 'resource', '', ''],
    ['GET', '/apis/group/version/resource?fieldSelector=metadata.name%3D..', 'list', 'apis', 'group', 'version', '', 'resource', '', ''],
    ['GET', '/apis/group/version/resource?fieldSelector=metadata.name%3D.', 'list', 'apis', 'group', 'version', '', 'resource', '', ''],
    ['GET', '/apis/group/version/resource?fieldSelector=metadata.name%3Da%5C%2Cb', 'list', 'apis', 'group', 'version', '', 'resource', '', 'a,b'],
    ['GET', '/api/v1/watch/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dcm', 'watch', 'api', '', 'v1', 'ns', 'configmaps', '', ''],
    ['DELETE', '/apis/group/version/resource?fieldSelector=metadata.name%3Dx', 'deletecollection', 'apis', 'group', 'version', '', 'resource', '', ''],
  ]);

  it('keeps the path without the query', () => {
    expect(info('GET', '/api/v1/pods?watch=1').path).to.equal('/api/v1/pods');
  });

  it('parts are the segments after the subresource', () => {
    expect(info('GET', '/api/v1/namespaces/other/pods/foo/proxy/a/b').parts).to.deep.equal(['a', 'b']);
    expect(info('GET', '/api/v1/namespaces/other/pods/foo').parts).to.deep.equal([]);
  });
});

describe('request-info: non-resource requests (spec 000 § Other paths)', () => {
  const rows: Array<[string, string, string]> = [
    ['GET', '/', 'get'],
    ['GET', '', 'get'],
    ['GET', '/api', 'get'],
    ['GET', '/api/v1', 'get'],
    ['GET', '/api/v1/', 'get'],
    ['GET', '/apis', 'get'],
    ['GET', '/apis/apps', 'get'],
    ['GET', '/apis/apps/v1', 'get'],
    ['GET', '/apis/apps/v1/', 'get'],
    ['GET', '/apis/v1/resource', 'get'],
    ['GET', '/version', 'get'],
    ['GET', '/healthz', 'get'],
    ['GET', '/livez/etcd', 'get'],
    ['GET', '/readyz', 'get'],
    ['GET', '/openapi/v2', 'get'],
    ['GET', '/metrics', 'get'],
    ['GET', '/badprefix/version/resource', 'get'],
    ['POST', '/logs/x', 'post'],
    ['HEAD', '/version', 'head'],
    ['DELETE', '/debug/pprof', 'delete'],
  ];
  for (const [method, path, verb] of rows) {
    it(`${method} ${JSON.stringify(path)} is a non-resource request with verb ${verb}`, () => {
      const i = info(method, path);
      expect(i.isResourceRequest).to.equal(false);
      expect(i.verb).to.equal(verb);
      expect(i.resource).to.equal('');
      expect(i.path).to.equal(path);
    });
  }
});

describe('request-info: queryBool (upstream query-string to bool conversion)', () => {
  const rows: Array<[string | null, boolean]> = [
    [null, false],
    ['0', false],
    ['false', false],
    ['False', false],
    ['FALSE', false],
    ['', true],
    ['1', true],
    ['true', true],
    ['True', true],
    ['yes', true],
    ['f', true],
    ['no', true],
  ];
  for (const [value, want] of rows) {
    it(`${JSON.stringify(value)} → ${want}`, () => {
      expect(queryBool(value)).to.equal(want);
    });
  }
});
