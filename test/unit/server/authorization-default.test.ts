/**
 * The default `--authorization-mode` (spec 001 § Authorization; README § Where we differ from the
 * spec's text): `Node,RBAC`, where upstream's command defaults to `AlwaysAllow`. Pinned by value,
 * not by the options' own default, so a change of the default fails here.
 */
import { expect } from 'chai';
import { formatHelp, parseServerFlags } from '../../../lib/server/options/flags.js';

describe('the default --authorization-mode', () => {
  it('is Node,RBAC when neither --authorization-mode nor --authorization-config is given', () => {
    expect(parseServerFlags([]).authorization.modes).to.deep.equal(['Node', 'RBAC']);
  });

  it('--help shows it as the default', () => {
    const line = formatHelp()
      .split('\n')
      .find((l) => /^\s+--authorization-mode /.test(l));
    expect(line).to.match(/ \(default \[Node,RBAC\]\)$/);
  });
});
