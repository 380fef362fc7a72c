/**
 * Deprecated flags (spec 001 § Deprecation rules, rule 5): each use warns with pflag's line, the
 * flag keeps working, and `--help` marks it with pflag's `(DEPRECATED: …)`.
 */
import { expect } from 'chai';
import { FLAGS } from '../../../../lib/server/options/flag-table.js';
import { formatHelp, parseServerFlags } from '../../../../lib/server/options/flags.js';

const WARNING = 'Flag --enable-logs-handler has been deprecated, This flag will be removed in v1.19';

function parse(argv: string[]): { warnings: string[]; logsHandler: boolean } {
  const warnings: string[] = [];
  const o = parseServerFlags(argv, (line) => warnings.push(line));
  return { warnings, logsHandler: o.logging.enableLogsHandler };
}

describe('deprecated flags (spec 001 § Deprecation rules 5)', () => {
  it('marks the flags upstream v1.30 deprecates that this server accepts: --enable-logs-handler', () => {
    expect(FLAGS.filter((f) => f.deprecated !== undefined).map((f) => [f.name, f.deprecated])).to.deep.equal([['enable-logs-handler', 'This flag will be removed in v1.19']]);
  });

  it('warns with pflag\'s line when one is used, and still applies it', () => {
    expect(parse(['--enable-logs-handler'])).to.deep.equal({ warnings: [WARNING], logsHandler: true });
  });

  it('warns once per use, as pflag does', () => {
    expect(parse(['--enable-logs-handler=true', '--enable-logs-handler']).warnings).to.deep.equal([WARNING, WARNING]);
  });

  it('does not warn for flags that are not deprecated, nor when the flag is absent', () => {
    expect(parse(['--profiling=false', '--v=2']).warnings).to.deep.equal([]);
  });

  it('--help lists a deprecated flag with "(DEPRECATED: <message>)" after its default, and no other flag with it', () => {
    const lines = formatHelp().split('\n');
    const marked = lines.filter((l) => l.includes('(DEPRECATED: '));
    expect(marked).to.have.length(1);
    expect(marked[0]).to.match(/^ +--enable-logs-handler +If true, install a \/logs handler for the apiserver logs\. \(default false\) \(DEPRECATED: This flag will be removed in v1\.19\)$/);
  });
});
