import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TokenFileAuthenticator, TokenFileError, parseTokenFile } from '../../../../lib/authentication/token-file/authenticator.js';
import { covers } from '../../../conformance/covers.js';

describe('authentication/token-file: parsing (spec 001 § Methods: Static token file)', () => {
  it(`reads token, user, uid and quoted groups${covers('001 § Methods › Static token file')}`, () => {
    expect([...parseTokenFile('s3cret,alice,u-1,"dev,ops"\n')]).to.deep.equal([['s3cret', { name: 'alice', uid: 'u-1', groups: ['dev', 'ops'] }]]);
  });

  it('groups are optional', () => {
    expect(parseTokenFile('t,bob,u-2').get('t')).to.deep.equal({ name: 'bob', uid: 'u-2', groups: [] });
  });

  it('a single unquoted group is read', () => {
    expect(parseTokenFile('t,bob,u-2,admins').get('t')?.groups).to.deep.equal(['admins']);
  });

  it('columns after the groups are ignored', () => {
    expect(parseTokenFile('t,bob,u-2,g,extra').get('t')).to.deep.equal({ name: 'bob', uid: 'u-2', groups: ['g'] });
  });

  it('reads every row', () => {
    expect([...parseTokenFile('t1,a,1\nt2,b,2\n').keys()]).to.deep.equal(['t1', 't2']);
  });

  it('a row with fewer than 3 columns makes the file invalid', () => {
    expect(() => parseTokenFile('t1,a,1\nt2,b\n', 'tokens.csv')).to.throw(TokenFileError, 'tokens.csv: line 2: token file entries must have at least 3 columns, found 2');
  });
});

describe('authentication/token-file: TokenFileAuthenticator', () => {
  let dir: string;
  let auth: TokenFileAuthenticator;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'token-file-'));
    const file = path.join(dir, 'tokens.csv');
    await writeFile(file, 'tok-a,alice,u-1,"dev,ops"\ntok-b,bob,u-2\n');
    auth = await TokenFileAuthenticator.fromFile(file);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a listed token authenticates its user', async () => {
    expect(await auth.authenticateToken('tok-a')).to.deep.equal({ user: { name: 'alice', uid: 'u-1', groups: ['dev', 'ops'] } });
  });

  it('an unknown token is not this method\'s (null)', async () => {
    expect(await auth.authenticateToken('tok-x')).to.equal(null);
  });

  it('a prefix or extension of a listed token is unknown', async () => {
    expect(await auth.authenticateToken('tok')).to.equal(null);
    expect(await auth.authenticateToken('tok-aa')).to.equal(null);
  });

  it('each result is a copy: changing it does not change the next one', async () => {
    const first = await auth.authenticateToken('tok-a');
    first!.user.groups.push('system:masters');
    expect((await auth.authenticateToken('tok-a'))!.user.groups).to.deep.equal(['dev', 'ops']);
  });

  it('a missing file is an error', async () => {
    let caught: unknown;
    try {
      await TokenFileAuthenticator.fromFile(path.join(dir, 'missing.csv'));
    } catch (err) {
      caught = err;
    }
    expect((caught as NodeJS.ErrnoException).code).to.equal('ENOENT');
  });
});
