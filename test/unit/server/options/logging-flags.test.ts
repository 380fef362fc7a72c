import { expect } from 'chai';
import { FlagError, formatHelp, parseServerFlags } from '../../../../lib/server/options/flags.js';

describe('server/options/logging-flags (issue #16 item 7)', () => {
  it('defaults: text, profiling on, logs handler off (issue #16; upstream from v1.31), -v 0', () => {
    const o = parseServerFlags([]);
    expect(o.logging).to.deep.equal({ format: 'text', profiling: true, enableLogsHandler: false });
    expect(o.verbosity).to.equal(0);
  });

  it('reads --logging-format, --profiling=false and --enable-logs-handler', () => {
    const o = parseServerFlags(['--logging-format=json', '--profiling=false', '--enable-logs-handler']);
    expect(o.logging).to.deep.equal({ format: 'json', profiling: false, enableLogsHandler: true });
  });

  it('refuses an unknown format with upstream\'s message', () => {
    expect(() => parseServerFlags(['--logging-format=xml'])).to.throw(FlagError, 'format: Invalid value: "xml": Unsupported log format');
  });

  it('takes -v in pflag\'s shorthand forms: -v=3, -v3, -v 3, --v=3', () => {
    for (const argv of [['-v=3'], ['-v3'], ['-v', '3'], ['--v=3']]) expect(parseServerFlags(argv).verbosity, argv.join(' ')).to.equal(3);
    expect(() => parseServerFlags(['-v'])).to.throw(FlagError, "flag needs an argument: 'v' in -v");
    expect(() => parseServerFlags(['-vx'])).to.throw(FlagError, 'invalid argument "x" for "-v, --v" flag: strconv.ParseInt: parsing "x": invalid syntax');
  });

  it('lists the flags in upstream\'s help sections', () => {
    const help = formatHelp();
    const section = (name: string) => help.slice(help.indexOf(`${name} flags:`), help.indexOf(' flags:', help.indexOf(`${name} flags:`) + name.length + 7));
    expect(section('Features')).to.match(/--profiling {2,}Enable profiling via web interface host:port\/debug\/pprof\/ \(default true\)/);
    expect(section('Logs')).to.match(/--logging-format string {2,}Sets the log format\. Permitted formats: "json", "text"\. \(default "text"\)/);
    expect(section('Misc')).to.match(/--enable-logs-handler {2,}If true, install a \/logs handler for the apiserver logs\. \(default false\)/);
  });
});
