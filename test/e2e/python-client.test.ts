import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

const run = promisify(execFile);
const SCRIPT = path.resolve(path.dirname(new URL(import.meta.url).pathname), 'python/client.py');
const PYTHON = '/usr/bin/python3';

describe('the official Python client against the real server command (issue #2 item 9)', function () {
  this.timeout(120_000);
  let server: ServerProcess;

  before(async () => {
    if (!existsSync(PYTHON)) throw new Error(`${PYTHON} not found: the e2e suite needs Debian's python3 with python3-kubernetes (hack/install-test-clients.sh)`);
    await run(PYTHON, ['-c', 'import kubernetes']).catch(() => {
      throw new Error('python3-kubernetes is not installed: run hack/install-test-clients.sh');
    });
    server = await startServerProcess();
  });
  after(async () => {
    if (server) await server.stop();
  });

  it('creates, reads, patches, lists, watches and deletes through the generated client', async () => {
    const { stdout } = await run(PYTHON, [SCRIPT, server.kubeconfig, 'pyns'], { timeout: 60_000 });
    const out = JSON.parse(stdout);
    expect(out.namespaces).to.include.members(['default', 'pyns']);
    expect(out.created_rv).to.match(/^\d+$/);
    expect(out.read_data).to.deep.equal({ a: '1' });
    expect(out.patched_data).to.deep.equal({ a: '1', b: '2' });
    expect(out.listed).to.deep.equal(['py']);
    expect(out.watch_after_create).to.deep.equal([['MODIFIED', 'py', { a: '1', b: '2' }]]);
    expect(out.not_found).to.deep.equal({ status: 404, reason: 'NotFound', message: 'configmaps "absent" not found' });
    expect(out.delete_status).to.equal('Success');
  });
});
