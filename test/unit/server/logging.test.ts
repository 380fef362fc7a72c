import { expect } from 'chai';
import { formatKlogLine } from '../../../lib/server/logging-text.js';
import { infoV, newLogger, setVerbosity, vEnabled, verbosityOfLevel } from '../../../lib/server/logging.js';

/** A destination collecting what the logger writes. */
function sink(): { lines: string[]; write(s: string): void } {
  const lines: string[] = [];
  return { lines, write: (s: string) => void lines.push(s) };
}

/** klog's header: severity, MMDD hh:mm:ss.uuuuuu, pid right-aligned in 7 columns, file:line]. */
const HEADER = (sev: string, caller: string) => new RegExp(`^${sev}\\d{4} \\d\\d:\\d\\d:\\d\\d\\.\\d{6} {1,7}${process.pid} ${caller.replace('.', '\\.')}:\\d+\\] `);

describe('server/logging (issue #16 item 7: --logging-format, -v)', () => {
  describe('formatKlogLine (klog text)', () => {
    const ts = new Date(2026, 10, 29, 1, 2, 3, 456).getTime() / 1000 + 0.000789;

    it('writes the header, the quoted message and key/value pairs as klog does', () => {
      const line = formatKlogLine({ level: 30, ts, caller: 'file.ts:123', msg: 'message', key: 'value', n: 3, ok: true }, 12345);
      expect(line).to.equal('I1129 01:02:03.456789   12345 file.ts:123] "message" key="value" n=3 ok=true\n');
    });

    it('maps warnings, errors and fatal records to W, E and F', () => {
      expect(formatKlogLine({ level: 40, ts, caller: 'a.ts:1', msg: 'm' }, 1)).to.match(/^W1129 /);
      expect(formatKlogLine({ level: 50, ts, caller: 'a.ts:1', msg: 'm' }, 1)).to.match(/^E1129 /);
      expect(formatKlogLine({ level: 60, ts, caller: 'a.ts:1', msg: 'm' }, 1)).to.match(/^F1129 /);
    });

    it('quotes strings with escapes, writes multi-line strings as a block, null as <nil>, objects as JSON', () => {
      const line = formatKlogLine({ level: 30, ts, caller: 'a.ts:1', msg: 'say "hi"', q: 'tab\there', lines: 'one\ntwo\n', none: null, obj: { a: [1] } }, 1);
      expect(line).to.equal('I1129 01:02:03.456789       1 a.ts:1] "say \\"hi\\"" q="tab\\there" lines=<\n\tone\n\ttwo\n > none=<nil> obj={"a":[1]}\n');
    });

    it('writes an unknown caller as ???:1', () => {
      expect(formatKlogLine({ level: 30, ts, msg: 'm' }, 7)).to.equal('I1129 01:02:03.456789       7 ???:1] "m"\n');
    });
  });

  describe('newLogger', () => {
    it('text: klog lines with this file as the caller and errors as their message', () => {
      const out = sink();
      const log = newLogger(0, out, 'text');
      log.info({ port: 6443, address: '0.0.0.0' }, 'serving securely');
      log.error({ err: new Error('boom') }, 'failed');
      expect(out.lines).to.have.length(2);
      expect(out.lines[0]).to.match(HEADER('I', 'logging.test.ts'));
      expect(out.lines[0]!.slice(out.lines[0]!.indexOf('] ') + 2)).to.equal('"serving securely" port=6443 address="0.0.0.0"\n');
      expect(out.lines[1]).to.match(HEADER('E', 'logging.test.ts'));
      expect(out.lines[1]).to.match(/\] "failed" err="boom"\n$/);
    });

    it('json: upstream\'s keys (ts in seconds, caller, msg, v), no v on errors', () => {
      const out = sink();
      const log = newLogger(2, out, 'json');
      log.info({ port: 1 }, 'hello');
      infoV(log, 2, { k: 'v' }, 'at two');
      log.error({ err: new Error('e') }, 'failed');
      const recs = out.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(recs[0]).to.include({ v: 0, port: 1, msg: 'hello' });
      expect(Object.keys(recs[0]!)[0]).to.equal('ts');
      expect(recs[0]!.ts).to.be.a('number').within(Date.now() / 1000 - 60, Date.now() / 1000 + 1);
      expect(recs[0]!.caller).to.match(/^logging\.test\.ts:\d+$/);
      expect(recs[1]).to.include({ v: 2, k: 'v', msg: 'at two' });
      expect(recs[2]).to.include({ err: 'e', msg: 'failed' });
      expect(recs[2]).to.not.have.property('v');
    });

    it('-v=N enables V(n) for n ≤ N only, as klog', () => {
      const out = sink();
      const log = newLogger(3, out, 'json');
      expect([0, 1, 2, 3, 4, 10].map((v) => vEnabled(log, v))).to.deep.equal([true, true, true, true, false, false]);
      infoV(log, 4, {}, 'hidden');
      infoV(log, 3, {}, 'shown');
      expect(out.lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).to.deep.equal(['shown']);
      expect(vEnabled(newLogger(0, sink(), 'json'), 1)).to.equal(false);
      expect(vEnabled(newLogger(10, sink(), 'json'), 10)).to.equal(true);
    });

    it('setVerbosity changes -v at run time', () => {
      const out = sink();
      const log = newLogger(0, out, 'json');
      setVerbosity(log, 3);
      expect(vEnabled(log, 3)).to.equal(true);
      infoV(log, 3, {}, 'now shown');
      setVerbosity(log, 0);
      expect(vEnabled(log, 1)).to.equal(false);
      expect(out.lines).to.have.length(1);
    });

    it('verbosityOfLevel: info and above 0, custom levels 1…9, debug 10', () => {
      expect([30, 40, 29, 21, 20, 10].map(verbosityOfLevel)).to.deep.equal([0, 0, 1, 9, 10, 20]);
    });
  });
});
