import { expect } from 'chai';
import { parseGoURL } from '../../../../../lib/apis/admissionregistration/v1/webhook-url.js';

describe('admissionregistration/v1 webhook URLs split as Go net/url.Parse', () => {
  const cases: [string, unknown][] = [
    ['https://hooks.example.com:8443/validate?x=1#top', { scheme: 'https', user: undefined, host: 'hooks.example.com:8443', rawQuery: 'x=1', fragment: 'top' }],
    ['HTTPS://u:p@[::1]:443/', { scheme: 'https', user: 'u:p', host: '[::1]:443', rawQuery: '', fragment: '' }],
    ['https:///only/path', { scheme: 'https', user: undefined, host: '', rawQuery: '', fragment: '' }],
    ['hooks/validate', { scheme: '', user: undefined, host: '', rawQuery: '', fragment: '' }],
    ['mailto:admin@example.com', { scheme: 'mailto', user: undefined, host: '', rawQuery: '', fragment: '' }],
    ['://x', 'parse "://x": missing protocol scheme'],
    ['a:b/c', { scheme: 'a', user: undefined, host: '', rawQuery: '', fragment: '' }],
    ['1a:b', 'parse "1a:b": first path segment in URL cannot contain colon'],
    ['https://host:port/', 'parse "https://host:port/": invalid port ":port" after host'],
    ['https://a\tb/', 'parse "https://a\\tb/": net/url: invalid control character in URL'],
    ['https://a{b}/', 'parse "https://a{b}/": invalid character "{" in host name'],
  ];
  for (const [url, want] of cases) it(JSON.stringify(url), () => expect(parseGoURL(url)).to.deep.equal(want));
});
