import { expect } from 'chai';
import { decodeJSONAnswer, dialAddress, errorResponseMessage, transportErrorMessage, type TransportError } from '../../../lib/client/rest-errors.js';

const failure = (code: string, extra: Partial<TransportError> = {}): TransportError => Object.assign(new Error(`node says ${code}`), { code, ...extra });

describe('client/rest-errors: the REST client failure texts of upstream (issue #23 item 4)', () => {
  describe('transportErrorMessage', () => {
    const cases: Array<[string, TransportError, string]> = [
      ['refused, at the address Node dialled', failure('ECONNREFUSED', { address: '10.0.0.5', port: 10250 }), 'dial tcp 10.0.0.5:10250: connect: connection refused'],
      ['refused, at the given address', failure('ECONNREFUSED'), 'dial tcp 127.0.0.1:9443: connect: connection refused'],
      ['refused over IPv6', failure('ECONNREFUSED', { address: '::1', port: 9443 }), 'dial tcp [::1]:9443: connect: connection refused'],
      ['a dial timeout', failure('ETIMEDOUT'), 'dial tcp 127.0.0.1:9443: i/o timeout'],
      ['no route', failure('EHOSTUNREACH'), 'dial tcp 127.0.0.1:9443: connect: no route to host'],
      ['closed before an answer', failure('ECONNRESET'), 'EOF'],
      ['an unknown host', failure('ENOTFOUND', { hostname: 'svc.example' }), 'dial tcp: lookup svc.example: no such host'],
      ['plain HTTP behind an https URL', failure('ERR_SSL_WRONG_VERSION_NUMBER'), 'http: server gave HTTP response to HTTPS client'],
      ['an unknown authority', failure('SELF_SIGNED_CERT_IN_CHAIN'), 'tls: failed to verify certificate: x509: certificate signed by unknown authority'],
      ['an expired certificate', failure('CERT_HAS_EXPIRED'), 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid'],
      ['a name the certificate lacks', failure('ERR_TLS_CERT_ALTNAME_INVALID', { host: 'other.example', cert: { subjectaltname: 'DNS:svc.example, IP Address:10.0.0.5' } }), 'tls: failed to verify certificate: x509: certificate is valid for svc.example, 10.0.0.5, not other.example'],
      ['another error keeps its message', failure('EPIPE'), 'node says EPIPE'],
    ];
    for (const [title, err, message] of cases) {
      it(title, () => expect(transportErrorMessage(err, '127.0.0.1:9443')).to.equal(message));
    }

    it('dialAddress brackets an IPv6 host', () => {
      expect(dialAddress('::1', 443)).to.equal('[::1]:443');
      expect(dialAddress('10.0.0.5', '8443')).to.equal('10.0.0.5:8443');
    });
  });

  describe('errorResponseMessage', () => {
    it('takes the message of a Failure Status in the body', () => {
      expect(errorResponseMessage(403, 'application/json', JSON.stringify({ kind: 'Status', status: 'Failure', message: 'no access' }))).to.equal('no access');
    });

    it('words any other answer by its code, quoting a text body where upstream does', () => {
      expect(errorResponseMessage(500, 'text/plain', ' broken\n')).to.equal('an error on the server ("broken") has prevented the request from succeeding');
      expect(errorResponseMessage(500, 'application/json', 'broken')).to.equal('an error on the server ("unknown") has prevented the request from succeeding');
      expect(errorResponseMessage(502, undefined, '')).to.equal('an error on the server ("unknown") has prevented the request from succeeding');
      expect(errorResponseMessage(403, 'text/plain', 'go away')).to.equal('go away');
      expect(errorResponseMessage(400, 'application/json', '{"message":"bad"}')).to.equal('the server rejected our request for an unknown reason');
      expect(errorResponseMessage(404, 'text/plain', 'x')).to.equal('the server could not find the requested resource');
      expect(errorResponseMessage(406, 'application/json', '{}')).to.equal('the server was unable to respond with a content type that the client supports');
      expect(errorResponseMessage(406, 'text/plain', 'only yaml')).to.equal('only yaml');
      expect(errorResponseMessage(415, 'text/plain', 'no such type')).to.equal('no such type');
      expect(errorResponseMessage(503, 'text/plain', 'x')).to.equal('the server is currently unable to handle the request');
      expect(errorResponseMessage(418, 'text/plain', 'x')).to.equal('the server responded with the status code 418 but did not return more information');
    });

    it('quotes at most the first 2 KiB of a text body', () => {
      const message = errorResponseMessage(500, 'text/plain; charset=utf-8', 'a'.repeat(5000));
      expect(message).to.equal(`an error on the server ("${'a'.repeat(2048)}") has prevented the request from succeeding`);
    });
  });

  describe('decodeJSONAnswer', () => {
    it('parses a JSON answer, whatever its JSON media type', () => {
      expect(decodeJSONAnswer(200, 'application/json; charset=utf-8', '{"a":1}')).to.deep.equal({ a: 1 });
      expect(decodeJSONAnswer(200, undefined, '[]')).to.deep.equal([]);
      expect(decodeJSONAnswer(201, 'application/merge-patch+json', '1')).to.equal(1);
    });

    it('refuses with the texts of upstream', () => {
      const refusal = (contentType: string | undefined, text: string) => {
        try {
          decodeJSONAnswer(200, contentType, text);
        } catch (err) {
          return (err as Error).message;
        }
        return 'decoded';
      };
      expect(refusal('application/json', 'yes')).to.equal("couldn't get version/kind; json parse error: invalid character 'y' looking for beginning of value");
      expect(refusal('application/json', '{"a":')).to.equal("couldn't get version/kind; json parse error: unexpected end of JSON input");
      expect(refusal('application/json', '')).to.equal('0-length response with status code: 200 and content type: application/json');
      expect(refusal('text/html; charset=utf-8', '{}')).to.equal("serializer for text/html; charset=utf-8 doesn't exist");
    });
  });
});
