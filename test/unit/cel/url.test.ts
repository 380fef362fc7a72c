import { fails, plainEnv, table } from './helpers.js';

describe('URL library with Go net/url semantics (spec 000 § Expression language (CEL) in fields)', () => {
  describe('isURL accepts absolute URIs and absolute paths only', () => {
    table(
      [
        ["isURL('https://user:pass@example.com:80/path?query=val#fragment')", true],
        ["isURL('/absolute-path')", true],
        ["isURL('https://example.com')", true],
        ["isURL('mailto:someone@example.com')", true],
        ["isURL('https://a:b:c/')", false],
        ["isURL('../relative-path')", false],
        ["isURL('relative')", false],
        ["isURL('')", false],
        ["isURL('https://exa mple.com/')", false],
        ["isURL('https://example.com/%zz')", false],
        ["isURL('http://[::1/')", false],
        ["isURL(':foo')", false],
        ["isURL('*')", true],
      ],
      plainEnv,
    );
  });

  describe('url() and its accessors', () => {
    table(
      [
        ["url('/path').getScheme()", ''],
        ["url('https://example.com/').getScheme()", 'https'],
        ["url('HTTPS://Example.com/').getScheme()", 'https'],
        ["url('HTTPS://Example.com/').getHost()", 'Example.com'],
        ["url('https://example.com:80/').getHost()", 'example.com:80'],
        ["url('https://example.com/').getHost()", 'example.com'],
        ["url('https://[::1]:80/').getHost()", '[::1]:80'],
        ["url('https://[::1]/').getHost()", '[::1]'],
        ["url('/path').getHost()", ''],
        ["url('https://example.com:80/').getHostname()", 'example.com'],
        ["url('https://127.0.0.1:80/').getHostname()", '127.0.0.1'],
        ["url('https://[::1]:80/').getHostname()", '::1'],
        ["url('/path').getHostname()", ''],
        ["url('https://example.com:80/').getPort()", '80'],
        ["url('https://example.com/').getPort()", ''],
        ["url('/path').getPort()", ''],
        ["url('https://user:pass@example.com/').getHost()", 'example.com'],
        ["url('https://example.com/path').getEscapedPath()", '/path'],
        ["url('https://example.com/path with spaces/').getEscapedPath()", '/path%20with%20spaces/'],
        ["url('https://example.com').getEscapedPath()", ''],
        ["url('https://example.com/a%2Fb').getEscapedPath()", '/a%2Fb'],
        ["url('https://example.com/%e2%82%ac').getEscapedPath()", '/%e2%82%ac'],
        ["url('https://example.com/€').getEscapedPath()", '/%E2%82%AC'],
        ["url('https://example.com/#frag').getEscapedPath()", '/'],
        ["url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()", { k1: ['a'], k2: ['b', 'c'] }],
        ["url('https://example.com/path?key with spaces=value with spaces').getQuery()", { 'key with spaces': ['value with spaces'] }],
        ["url('https://example.com/path?q=a+b&r=%41').getQuery()", { q: ['a b'], r: ['A'] }],
        ["url('https://example.com/path?a=1;b=2&c=3').getQuery()", { c: ['3'] }],
        ["url('https://example.com/path?').getQuery()", {}],
        ["url('https://example.com/path').getQuery()", {}],
        ["url('mailto:someone@example.com').getScheme()", 'mailto'],
        ["url('mailto:someone@example.com').getHost()", ''],
        ["url('https://example.com/') == url('https://example.com/')", true],
        ["url('https://example.com/') == url('https://example.com')", false],
        ["url('../relative-path')", fails(/^URL parse error during conversion from string: parse "..\/relative-path": invalid URI for request$/)],
        ["url('https://a:b:c/')", fails(/parse "https:\/\/a:b:c\/": invalid port ":c" after host/)],
        ["url('https://exa mple.com/')", fails(/invalid character " " in host name/)],
        ["url('https://example.com/%zz')", fails(/invalid URL escape "%zz"/)],
        ["url('')", fails(/empty url/)],
      ],
      plainEnv,
    );
  });
});
