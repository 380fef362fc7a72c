import { expect } from 'chai';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const PROBE = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../fixtures/scripts/proto-keys.ts');

/** Runs the probe in a fresh process (the accessor is process-wide state). */
async function probe(mode: 'harden' | 'plain'): Promise<{ copiedKeys: string[]; patchedKeys: string[]; polluted: unknown }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', PROBE, mode]);
  return JSON.parse(stdout);
}

describe('server/prototype-hardening: "__proto__" is an ordinary key once the accessor is removed', function () {
  this.timeout(20_000);

  it('without it, a merge patch reaches Object.prototype and copies lose the key (what the removal prevents)', async () => {
    expect(await probe('plain')).to.deep.equal({ copiedKeys: [], patchedKeys: [], polluted: 'yes' });
  });

  it('with it, copies and merge patches keep "__proto__" as an own key and nothing is polluted', async () => {
    expect(await probe('harden')).to.deep.equal({ copiedKeys: ['__proto__'], patchedKeys: ['__proto__'], polluted: null });
  });
});
