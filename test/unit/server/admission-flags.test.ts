import { expect } from 'chai';
import { DEFAULT_ON_PLUGINS } from '../../../lib/admission/plugins/index.js';
import { enabledPlugins } from '../../../lib/controlplane/admission.js';
import { FlagError, formatHelp, parseServerFlags } from '../../../lib/server/options/flags.js';
import { covers } from '../../conformance/covers.js';

describe('server/options/admission-flags', () => {
  it('collects --enable-admission-plugins and --disable-admission-plugins, comma lists and repeats', () => {
    const o = parseServerFlags(['--enable-admission-plugins=AlwaysPullImages,NodeRestriction', '--enable-admission-plugins', 'AlwaysDeny', '--disable-admission-plugins=ServiceAccount']);
    expect(o.admission.enablePlugins).to.deep.equal(['AlwaysPullImages', 'NodeRestriction', 'AlwaysDeny']);
    expect(o.admission.disablePlugins).to.deep.equal(['ServiceAccount']);
  });

  it('reads the configuration file and toleration flags', () => {
    const o = parseServerFlags(['--admission-control-config-file=/etc/admission.yaml', '--default-not-ready-toleration-seconds=60', '--default-unreachable-toleration-seconds', '30']);
    expect(o.admission.configFile).to.equal('/etc/admission.yaml');
    expect(o.admission.options).to.deep.equal({ defaultNotReadyTolerationSeconds: 60, defaultUnreachableTolerationSeconds: 30 });
  });

  it(`defaults both tolerations to 300 seconds (5 minutes), as --help says${covers('001 § Limits › Default tolerations', '001 § Admission control › DefaultTolerationSeconds')}`, () => {
    expect(parseServerFlags([]).admission.options).to.deep.equal({ defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300 });
    const help = formatHelp();
    for (const flag of ['default-not-ready-toleration-seconds', 'default-unreachable-toleration-seconds']) {
      expect(help).to.match(new RegExp(`--${flag} int +Indicates the tolerationSeconds .* \\(default 300\\)\n`));
    }
  });

  it('rejects a toleration that is not an integer', () => {
    expect(() => parseServerFlags(['--default-not-ready-toleration-seconds=5m'])).to.throw(FlagError, 'invalid argument "5m" for "--default-not-ready-toleration-seconds" flag: strconv.ParseInt: parsing "5m": invalid syntax');
  });

  it('refuses unknown plugin names with upstream messages', () => {
    expect(() => parseServerFlags(['--enable-admission-plugins=Foo'])).to.throw(FlagError, 'enable-admission-plugins plugin "Foo" is unknown');
    expect(() => parseServerFlags(['--disable-admission-plugins=Bar'])).to.throw(FlagError, 'disable-admission-plugins plugin "Bar" is unknown');
  });

  it('refuses plugins both enabled and disabled', () => {
    expect(() => parseServerFlags(['--enable-admission-plugins=Priority,AlwaysDeny', '--disable-admission-plugins=Priority,AlwaysDeny'])).to.throw(FlagError, '[AlwaysDeny Priority] in enable-admission-plugins and disable-admission-plugins overlapped');
  });

  describe('enabledPlugins', () => {
    it('is the default set in the fixed order without flags', () => {
      expect(enabledPlugins({ enablePlugins: [], disablePlugins: [] })).to.deep.equal(DEFAULT_ON_PLUGINS);
    });

    it('orders enabled plugins by the fixed order, whatever order the flag lists them in', () => {
      const on = enabledPlugins({ enablePlugins: ['AlwaysDeny', 'AlwaysPullImages', 'NodeRestriction', 'AlwaysAdmit'], disablePlugins: [] });
      expect(on[0]).to.equal('AlwaysAdmit');
      expect(on.at(-1)).to.equal('AlwaysDeny');
      expect(on.indexOf('NodeRestriction')).to.equal(on.indexOf('ServiceAccount') + 1);
      expect(on.indexOf('AlwaysPullImages')).to.equal(on.indexOf('TaintNodesByCondition') + 1);
    });

    it('drops disabled plugins, defaults included', () => {
      const on = enabledPlugins({ enablePlugins: [], disablePlugins: ['ServiceAccount', 'ResourceQuota'] });
      expect(on).to.not.include.members(['ServiceAccount', 'ResourceQuota']);
      expect(on).to.have.length(DEFAULT_ON_PLUGINS.length - 2);
    });
  });
});
