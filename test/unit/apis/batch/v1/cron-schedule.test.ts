import { expect } from 'chai';
import { cronScheduleError, timeZoneError } from '../../../../../lib/apis/batch/v1/cron-schedule.js';

describe('batch/v1 CronJob schedules (the standard cron parser upstream uses)', () => {
  const valid = [
    '*/5 * * * *',
    '0 0 * * *',
    '0 9-17/2 * * mon-fri',
    '15,45 * 1,15 JAN,jul ?',
    '0 0 29 2 *',
    '59 23 31 12 6',
    '@yearly',
    '@annually',
    '@monthly',
    '@weekly',
    '@daily',
    '@midnight',
    '@hourly',
    '@every 1h30m',
    'TZ=UTC 0 * * * *',
    'CRON_TZ=Europe/Paris @daily',
    '  0   0  *  *  *  ',
  ];
  for (const schedule of valid) it(`accepts ${JSON.stringify(schedule)}`, () => expect(cronScheduleError(schedule)).to.equal(undefined));

  const invalid: [string, string][] = [
    ['', 'empty spec string'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['0 * * * * *', 'expected exactly 5 fields, found 6: [0 * * * * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* 24 * * *', 'end of range (24) above maximum (23): 24'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['* * * 13 *', 'end of range (13) above maximum (12): 13'],
    ['* * * * 7', 'end of range (7) above maximum (6): 7'],
    ['5-2 * * * *', 'beginning of range (5) beyond end of range (2): 5-2'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/2/3 * * * *', 'too many slashes: */2/3'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['* * * smarch *', 'failed to parse int from smarch: strconv.Atoi: parsing "smarch": invalid syntax'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@every 1d', 'failed to parse duration @every 1d: time: unknown unit "d" in duration "1d"'],
    ['TZ=Mars/Olympus 0 * * * *', 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus'],
  ];
  for (const [schedule, message] of invalid) it(`rejects ${JSON.stringify(schedule)}: ${message}`, () => expect(cronScheduleError(schedule)).to.equal(message));

  it('knows IANA time zones and rejects unknown names and case variants', () => {
    for (const zone of ['UTC', 'Local', 'America/New_York', 'Asia/Kolkata', 'Etc/GMT+5']) expect(timeZoneError(zone), zone).to.equal(undefined);
    expect(timeZoneError('Nowhere/Town')).to.equal('unknown time zone Nowhere/Town');
    expect(timeZoneError('america/new_york')).to.equal('unknown time zone america/new_york');
  });
});
