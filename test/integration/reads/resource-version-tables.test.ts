import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

/**
 * One case per cell of the three tables of spec 000 § Resource versions. Each fixture writes a
 * ConfigMap twice: `rv1` (data v=1) then `rv2` (data v=2), so a read tells which version it saw.
 */
describe('resourceVersion semantics (spec 000 § Resource versions, all three tables)', () => {
  const server = useTestServer();
  let n = 0;
  interface Fixture {
    cms: string;
    rv1: string;
    rv2: string;
  }

  async function fixture(): Promise<Fixture> {
    const ns = `rv${++n}`;
    await server().admin.post('/api/v1/namespaces', { metadata: { name: ns } });
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    const created = (await server().admin.post(cms, { metadata: { name: 'a' }, data: { v: '1' } })).body;
    const updated = (await server().admin.put(`${cms}/a`, { ...created, data: { v: '2' } })).body;
    await server().admin.post(cms, { metadata: { name: 'b' }, data: { v: 'b' } });
    return { cms, rv1: created.metadata.resourceVersion, rv2: updated.metadata.resourceVersion };
  }
  const future = (rv: string) => String(Number(rv) + 1_000_000);
  const dataOf = (list: { items: { metadata: { name: string }; data: { v: string } }[] }) => Object.fromEntries(list.items.map((i) => [i.metadata.name, i.data.v]));

  describe('get', () => {
    it(`unset: most recent${covers('000 § Resource versions (Get semantics) › unset')}`, async () => {
      const f = await fixture();
      expect((await server().admin.get(`${f.cms}/a`)).body.data.v).to.equal('2');
    });
    it(`0: any version (here the cached latest)${covers('000 § Resource versions (Get semantics) › 0')}`, async () => {
      const f = await fixture();
      const res = await server().admin.get(`${f.cms}/a?resourceVersion=0`);
      expect(res.status).to.equal(200);
      expect(['1', '2']).to.include(res.body.data.v);
    });
    it(`a version: not older than it${covers('000 § Resource versions (Get semantics) › other value')}`, async () => {
      const f = await fixture();
      const res = await server().admin.get(`${f.cms}/a?resourceVersion=${f.rv1}`);
      expect(res.body.data.v).to.equal('2');
      expect(Number(res.body.metadata.resourceVersion)).to.be.at.least(Number(f.rv1));
    });
    it(`a version from the future: 504 Timeout with Retry-After and the too-large message, after a short wait${covers('000 § Resource versions (Get semantics) › other value', '001 § Errors › 504 Gateway Timeout')}`, async () => {
      const f = await fixture();
      const res = await server().admin.get(`${f.cms}/a?resourceVersion=${future(f.rv2)}`);
      expect(res.status).to.equal(504);
      expect(res.headers['retry-after']).to.equal('1');
      expect(res.body).to.include({ reason: 'Timeout', code: 504 });
      expect(res.body.message).to.match(new RegExp(`^Timeout: Too large resource version: ${future(f.rv2)}, current: \\d+$`));
      expect(res.body.details.causes).to.deep.equal([{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }]);
    });
  });

  describe('list', () => {
    const ok = (expected: Record<string, string>, rvCheck?: (rv: string, f: Fixture) => void) => async (path: string, f: Fixture) => {
      const res = await server().admin.get(path);
      expect(res.status, res.text).to.equal(200);
      expect(dataOf(res.body)).to.deep.equal(expected);
      rvCheck?.(res.body.metadata.resourceVersion, f);
    };
    const bad = (fragment: string) => async (path: string) => {
      const res = await server().admin.get(path);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.reason).to.equal('BadRequest');
      expect(res.body.message).to.include(fragment);
    };
    const latest = { a: '2', b: 'b' };
    const atLeast = (rv: string, f: Fixture) => expect(Number(rv)).to.be.at.least(Number(f.rv2));
    const rows: [string, (f: Fixture) => string, (path: string, f: Fixture) => Promise<void>][] = [
      [`match unset, no limit, rv unset: most recent${covers('000 § Resource versions (List semantics) › unset / no limit')}`, (f) => f.cms, ok(latest, atLeast)],
      [`match unset, no limit, rv 0: any${covers('000 § Resource versions (List semantics) › unset / no limit')}`, (f) => `${f.cms}?resourceVersion=0`, ok(latest)],
      [`match unset, no limit, rv set: not older than${covers('000 § Resource versions (List semantics) › unset / no limit')}`, (f) => `${f.cms}?resourceVersion=${f.rv1}`, ok(latest, atLeast)],
      [`match unset, limit, rv unset: most recent${covers('000 § Resource versions (List semantics) › unset / limit=<n>, no continue')}`, (f) => `${f.cms}?limit=5`, ok(latest, atLeast)],
      [`match unset, limit, rv 0: any${covers('000 § Resource versions (List semantics) › unset / limit=<n>, no continue')}`, (f) => `${f.cms}?limit=5&resourceVersion=0`, ok(latest)],
      [`match unset, limit, rv set: exact${covers('000 § Resource versions (List semantics) › unset / limit=<n>, no continue')}`, (f) => `${f.cms}?limit=5&resourceVersion=${f.rv1}`, ok({ a: '1' }, (rv, f) => expect(rv).to.equal(f.rv1))],
      [`Exact, no limit, rv unset: invalid${covers('000 § Resource versions (List semantics) › Exact / no limit')}`, (f) => `${f.cms}?resourceVersionMatch=Exact`, bad('resourceVersionMatch is forbidden unless resourceVersion is provided')],
      [`Exact, no limit, rv 0: invalid${covers('000 § Resource versions (List semantics) › Exact / no limit')}`, (f) => `${f.cms}?resourceVersionMatch=Exact&resourceVersion=0`, bad('resourceVersionMatch "exact" is forbidden for resourceVersion "0"')],
      [`Exact, no limit, rv set: exact${covers('000 § Resource versions (List semantics) › Exact / no limit')}`, (f) => `${f.cms}?resourceVersionMatch=Exact&resourceVersion=${f.rv1}`, ok({ a: '1' }, (rv, f) => expect(rv).to.equal(f.rv1))],
      [`Exact, limit, rv unset: invalid${covers('000 § Resource versions (List semantics) › Exact / limit=<n>, no continue')}`, (f) => `${f.cms}?limit=5&resourceVersionMatch=Exact`, bad('resourceVersionMatch is forbidden unless resourceVersion is provided')],
      [`Exact, limit, rv 0: invalid${covers('000 § Resource versions (List semantics) › Exact / limit=<n>, no continue')}`, (f) => `${f.cms}?limit=5&resourceVersionMatch=Exact&resourceVersion=0`, bad('resourceVersionMatch "exact" is forbidden for resourceVersion "0"')],
      [`Exact, limit, rv set: exact${covers('000 § Resource versions (List semantics) › Exact / limit=<n>, no continue')}`, (f) => `${f.cms}?limit=5&resourceVersionMatch=Exact&resourceVersion=${f.rv2}`, ok({ a: '2' }, (rv, f) => expect(rv).to.equal(f.rv2))],
      [`NotOlderThan, no limit, rv unset: invalid${covers('000 § Resource versions (List semantics) › NotOlderThan / no limit')}`, (f) => `${f.cms}?resourceVersionMatch=NotOlderThan`, bad('resourceVersionMatch is forbidden unless resourceVersion is provided')],
      [`NotOlderThan, no limit, rv 0: any${covers('000 § Resource versions (List semantics) › NotOlderThan / no limit')}`, (f) => `${f.cms}?resourceVersionMatch=NotOlderThan&resourceVersion=0`, ok(latest)],
      [`NotOlderThan, no limit, rv set: not older than${covers('000 § Resource versions (List semantics) › NotOlderThan / no limit')}`, (f) => `${f.cms}?resourceVersionMatch=NotOlderThan&resourceVersion=${f.rv1}`, ok(latest, atLeast)],
      [`NotOlderThan, limit, rv unset: invalid${covers('000 § Resource versions (List semantics) › NotOlderThan / limit=<n>, no continue')}`, (f) => `${f.cms}?limit=5&resourceVersionMatch=NotOlderThan`, bad('resourceVersionMatch is forbidden unless resourceVersion is provided')],
      [`NotOlderThan, limit, rv 0: any${covers('000 § Resource versions (List semantics) › NotOlderThan / limit=<n>, no continue')}`, (f) => `${f.cms}?limit=5&resourceVersionMatch=NotOlderThan&resourceVersion=0`, ok(latest)],
      [`NotOlderThan, limit, rv set: not older than${covers('000 § Resource versions (List semantics) › NotOlderThan / limit=<n>, no continue')}`, (f) => `${f.cms}?limit=5&resourceVersionMatch=NotOlderThan&resourceVersion=${f.rv1}`, ok(latest, atLeast)],
      ['an unknown resourceVersionMatch: invalid', (f) => `${f.cms}?resourceVersionMatch=Newest&resourceVersion=1`, bad('Unsupported value: "Newest"')],
    ];
    for (const [name, path, check] of rows) {
      it(name, async () => {
        const f = await fixture();
        await check(path(f), f);
      });
    }

    it(`match unset, limit, continue, rv unset: continue token, exact${covers('000 § Resource versions (List semantics) › unset / limit=<n>, continue=<token>')}`, async () => {
      const f = await fixture();
      const first = (await server().admin.get(`${f.cms}?limit=1`)).body;
      await server().admin.put(`${f.cms}/b`, { metadata: { name: 'b' }, data: { v: 'changed' } });
      const next = (await server().admin.get(`${f.cms}?limit=1&continue=${encodeURIComponent(first.metadata.continue)}`)).body;
      expect(next.metadata.resourceVersion).to.equal(first.metadata.resourceVersion);
      expect(dataOf(next)).to.deep.equal({ b: 'b' });
    });

    it(`match unset, limit, continue, rv 0: treated as the continue token, exact${covers('000 § Resource versions (List semantics) › unset / limit=<n>, continue=<token>')}`, async () => {
      const f = await fixture();
      const first = (await server().admin.get(`${f.cms}?limit=1`)).body;
      const next = await server().admin.get(`${f.cms}?limit=1&resourceVersion=0&continue=${encodeURIComponent(first.metadata.continue)}`);
      expect(next.status).to.equal(200);
      expect(next.body.metadata.resourceVersion).to.equal(first.metadata.resourceVersion);
    });

    it(`match unset, limit, continue, rv set: 400${covers('000 § Resource versions (List semantics) › unset / limit=<n>, continue=<token>', '001 § Errors › 400 Bad Request')}`, async () => {
      const f = await fixture();
      const first = (await server().admin.get(`${f.cms}?limit=1`)).body;
      await bad('specifying resource version is not allowed when using continue')(`${f.cms}?limit=1&resourceVersion=${f.rv1}&continue=${encodeURIComponent(first.metadata.continue)}`);
    });

    it('a continue token with resourceVersionMatch: 400', async () => {
      const f = await fixture();
      const first = (await server().admin.get(`${f.cms}?limit=1`)).body;
      await bad('resourceVersionMatch is forbidden when continue is provided')(`${f.cms}?limit=1&resourceVersion=0&resourceVersionMatch=NotOlderThan&continue=${encodeURIComponent(first.metadata.continue)}`);
    });

    it('a malformed continue token: 400', async () => {
      const f = await fixture();
      const res = await server().admin.get(`${f.cms}?limit=1&continue=not-a-token`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.match(/^invalid continue token: continue key is not valid/);
    });

    it(`NotOlderThan with a version from the future: 504${covers('001 § Errors › 504 Gateway Timeout')}`, async () => {
      const f = await fixture();
      const res = await server().admin.get(`${f.cms}?resourceVersionMatch=NotOlderThan&resourceVersion=${future(f.rv2)}`);
      expect(res.status).to.equal(504);
      expect(res.body.message).to.include('Too large resource version');
    });
  });

  describe('watch', () => {
    it(`unset: synthetic ADDED for existing objects, then changes after that version${covers('000 § Resource versions (Watch semantics) › unset')}`, async () => {
      const f = await fixture();
      const w = await server().admin.watch(`${f.cms}?watch=1`);
      const first = [await w.next(), await w.next()];
      expect(first.map((e) => [e.type, e.object.metadata.name, e.object.data.v])).to.deep.equal([
        ['ADDED', 'a', '2'],
        ['ADDED', 'b', 'b'],
      ]);
      await server().admin.post(f.cms, { metadata: { name: 'c' } });
      expect((await w.next()).object.metadata.name).to.equal('c');
      w.close();
    });
    it(`0: synthetic ADDED for existing objects${covers('000 § Resource versions (Watch semantics) › 0')}`, async () => {
      const f = await fixture();
      const w = await server().admin.watch(`${f.cms}?watch=1&resourceVersion=0`);
      const names = [(await w.next()).object.metadata.name, (await w.next()).object.metadata.name];
      expect(names).to.deep.equal(['a', 'b']);
      w.close();
    });
    it(`a version: every change after it, no synthetic ADDED${covers('000 § Resource versions (Watch semantics) › other value')}`, async () => {
      const f = await fixture();
      const w = await server().admin.watch(`${f.cms}?watch=1&resourceVersion=${f.rv1}`);
      const ev1 = await w.next();
      expect([ev1.type, ev1.object.metadata.name, ev1.object.data.v, ev1.object.metadata.resourceVersion]).to.deep.equal(['MODIFIED', 'a', '2', f.rv2]);
      const ev2 = await w.next();
      expect([ev2.type, ev2.object.metadata.name]).to.deep.equal(['ADDED', 'b']);
      w.close();
    });
    it('a version from the future: 504 after a short wait', async () => {
      const f = await fixture();
      const w = await server().admin.watch(`${f.cms}?watch=1&resourceVersion=${future(f.rv2)}`);
      expect(w.status).to.equal(504);
      expect(w.headers['retry-after']).to.equal('1');
      w.close();
    });
    it('resourceVersionMatch without sendInitialEvents: 400', async () => {
      const f = await fixture();
      const res = await server().admin.get(`${f.cms}?watch=1&resourceVersion=0&resourceVersionMatch=NotOlderThan`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.include('resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
    });
    it('sendInitialEvents without the WatchList feature gate: 400', async () => {
      const f = await fixture();
      const res = await server().admin.get(`${f.cms}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.include('sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled');
    });
  });
});
