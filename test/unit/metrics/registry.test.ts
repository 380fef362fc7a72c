import { expect } from 'chai';
import {
  type MetricDeclaration,
  type ReleaseVersion,
  SERVER_RELEASE,
  StabilityRegistry,
  validateShowHiddenMetricsVersion,
} from '../../../lib/metrics/registry.js';
import { ServerMetrics } from '../../../lib/server/metrics.js';
import { FlagError, formatHelp, parseServerFlags } from '../../../lib/server/options/flags.js';

const V1_30: ReleaseVersion = { major: 1, minor: 30, patch: 0 };

/** A counter declaration named `name`. */
function decl(name: string, more: Partial<MetricDeclaration<'code'>> = {}): MetricDeclaration<'code'> {
  return { name, help: 'Counts things.', labelNames: ['code'], stabilityLevel: 'ALPHA', ...more };
}

/** The `# HELP` line of `name` in the exposition text, or undefined when not exported. */
async function helpLine(r: StabilityRegistry, name: string): Promise<string | undefined> {
  return (await r.registry.metrics()).split('\n').find((l) => l.startsWith(`# HELP ${name} `));
}

describe('metrics/registry', () => {
  it('the server release is the one /version reports', () => {
    expect(SERVER_RELEASE).to.deep.equal(V1_30);
  });

  describe('HELP prefixes', () => {
    const cases: Array<[string, Partial<MetricDeclaration<'code'>>, string]> = [
      ['alpha', { stabilityLevel: 'ALPHA' }, '[ALPHA] Counts things.'],
      ['beta', { stabilityLevel: 'BETA' }, '[BETA] Counts things.'],
      ['stable', { stabilityLevel: 'STABLE' }, '[STABLE] Counts things.'],
      ['internal', { stabilityLevel: 'INTERNAL' }, '[INTERNAL] Counts things.'],
      ['deprecated in this release', { stabilityLevel: 'STABLE', deprecatedVersion: '1.30.0' }, '[STABLE] (Deprecated since 1.30.0) Counts things.'],
      ['deprecated in a later release: not yet', { deprecatedVersion: '1.31.0' }, '[ALPHA] Counts things.'],
      ['deprecated in a later patch of this minor: not yet', { deprecatedVersion: '1.30.2' }, '[ALPHA] Counts things.'],
    ];
    for (const [what, more, help] of cases) {
      it(what, async () => {
        const r = new StabilityRegistry({ version: V1_30 });
        r.counter(decl('things_total', more));
        expect(await helpLine(r, 'things_total')).to.equal(`# HELP things_total ${help}`);
        expect(r.hiddenMetrics()).to.deep.equal([]);
      });
    }

    it('gauges, histograms and summaries carry the prefixes too', async () => {
      const r = new StabilityRegistry({ version: V1_30 });
      r.gauge({ name: 'g', help: 'A gauge.', labelNames: [], stabilityLevel: 'BETA' });
      r.histogram({ name: 'h_seconds', help: 'A histogram.', labelNames: ['verb'], stabilityLevel: 'STABLE', buckets: [1, 2] });
      r.summary({ name: 's_seconds', help: 'A summary.', labelNames: ['verb'], stabilityLevel: 'ALPHA', deprecatedVersion: '1.30.0', percentiles: [0.5], maxAgeSeconds: 60, ageBuckets: 2 });
      expect(await helpLine(r, 'g')).to.equal('# HELP g [BETA] A gauge.');
      expect(await helpLine(r, 'h_seconds')).to.equal('# HELP h_seconds [STABLE] A histogram.');
      expect(await helpLine(r, 's_seconds')).to.equal('# HELP s_seconds [ALPHA] (Deprecated since 1.30.0) A summary.');
    });

    it('a summary reports its quantiles, sum and count per label set', async () => {
      const r = new StabilityRegistry({ version: V1_30 });
      const s = r.summary({ name: 's_seconds', help: 'A summary.', labelNames: ['verb'], stabilityLevel: 'ALPHA', percentiles: [0.5, 0.99], maxAgeSeconds: 60, ageBuckets: 2 });
      for (const v of [1, 2, 3]) s.observe({ verb: 'GET' }, v);
      const text = await r.registry.metrics();
      expect(text).to.include('# TYPE s_seconds summary');
      expect(text).to.include('s_seconds{verb="GET",quantile="0.5"} 2');
      expect(text).to.include('s_seconds{verb="GET",quantile="0.99"} 3');
      expect(text).to.include('s_seconds_sum{verb="GET"} 6');
      expect(text).to.include('s_seconds_count{verb="GET"} 3');
    });

    it('a summary deprecated in an earlier minor release is hidden', async () => {
      const r = new StabilityRegistry({ version: V1_30 });
      r.summary({ name: 'old_seconds', help: 'Old.', labelNames: [], stabilityLevel: 'ALPHA', deprecatedVersion: '1.29.0', percentiles: [0.5], maxAgeSeconds: 60, ageBuckets: 2 }).observe({}, 1);
      expect(await r.registry.metrics()).not.to.include('old_seconds');
      expect(r.hiddenMetrics()).to.deep.equal(['old_seconds']);
    });
  });

  describe('hidden metrics', () => {
    it('a metric deprecated in an earlier minor release is not exported, yet records without error', async () => {
      const r = new StabilityRegistry({ version: V1_30 });
      const hidden = r.counter(decl('old_total', { deprecatedVersion: '1.29.0' }));
      const older = r.counter(decl('older_total', { deprecatedVersion: '1.20.0' }));
      r.counter(decl('kept_total'));
      hidden.inc({ code: '200' });
      older.inc({ code: '200' });
      const text = await r.registry.metrics();
      expect(text).not.to.include('old_total');
      expect(text).to.include('# HELP kept_total [ALPHA] Counts things.');
      expect(r.hiddenMetrics()).to.deep.equal(['old_total', 'older_total']);
    });

    it('--show-hidden-metrics-for-version brings hidden metrics back, still marked deprecated', async () => {
      const r = new StabilityRegistry({ version: V1_30, showHidden: true });
      r.counter(decl('old_total', { deprecatedVersion: '1.29.0', stabilityLevel: 'STABLE' })).inc({ code: '200' });
      const text = await r.registry.metrics();
      expect(text).to.include('# HELP old_total [STABLE] (Deprecated since 1.29.0) Counts things.');
      expect(text).to.include('old_total{code="200"} 1');
      expect(r.hiddenMetrics()).to.deep.equal([]);
    });

    it('a later patch of the running minor keeps a metric deprecated in that minor visible', async () => {
      const r = new StabilityRegistry({ version: { major: 1, minor: 30, patch: 3 } });
      r.counter(decl('x_total', { deprecatedVersion: '1.30.1' }));
      expect(await helpLine(r, 'x_total')).to.equal('# HELP x_total [ALPHA] (Deprecated since 1.30.1) Counts things.');
    });

    for (const bad of ['1.29', 'v1.29.0', '', 'x']) {
      it(`a malformed deprecatedVersion ${JSON.stringify(bad)} is a declaration error`, () => {
        const r = new StabilityRegistry({ version: V1_30 });
        expect(() => r.counter(decl('bad_total', { deprecatedVersion: bad }))).to.throw(
          `metric bad_total: deprecatedVersion ${JSON.stringify(bad)} is not <major>.<minor>.<patch>`,
        );
      });
    }
  });

  describe('validateShowHiddenMetricsVersion', () => {
    const message = "--show-hidden-metrics-for-version must be omitted or have the value '1.29'. Only the previous minor version is allowed";
    const cases: Array<[string, string | undefined]> = [
      ['', undefined],
      ['1.29', undefined],
      ['1.28', message],
      ['1.30', message],
      ['1.29.0', message],
      ['v1.29', message],
      ['junk', message],
    ];
    for (const [value, want] of cases) {
      it(JSON.stringify(value), () => {
        expect(validateShowHiddenMetricsVersion(value)).to.equal(want);
      });
    }

    it('the flag: the previous minor is accepted', () => {
      expect(parseServerFlags(['--show-hidden-metrics-for-version=1.29']).showHiddenMetricsForVersion).to.equal('1.29');
      expect(parseServerFlags(['--show-hidden-metrics-for-version', '1.29']).showHiddenMetricsForVersion).to.equal('1.29');
    });

    it('the flag: another value is a start-up error with the upstream message', () => {
      expect(() => parseServerFlags(['--show-hidden-metrics-for-version=1.28'])).to.throw(FlagError, message);
    });

    it('the flag is listed under Metrics flags with upstream usage', () => {
      const help = formatHelp();
      expect(help).to.include('Metrics flags:');
      expect(help).to.match(/--show-hidden-metrics-for-version string +The previous version for which you want to show hidden metrics\. Only the previous minor version is meaningful/);
    });

    it('names the previous minor of the given release', () => {
      expect(validateShowHiddenMetricsVersion('1.29', { major: 1, minor: 31, patch: 0 })).to.equal(
        "--show-hidden-metrics-for-version must be omitted or have the value '1.30'. Only the previous minor version is allowed",
      );
    });
  });

  describe('ServerMetrics declarations', () => {
    const levels: Array<[string, string]> = [
      ['apiserver_request_total', 'STABLE'],
      ['apiserver_request_duration_seconds', 'STABLE'],
      ['apiserver_request_sli_duration_seconds', 'ALPHA'],
      ['apiserver_response_sizes', 'STABLE'],
      ['apiserver_longrunning_requests', 'STABLE'],
      ['apiserver_current_inflight_requests', 'STABLE'],
      ['apiserver_watch_events_total', 'ALPHA'],
      ['apiserver_watch_events_sizes', 'ALPHA'],
      ['etcd_request_duration_seconds', 'ALPHA'],
      ['etcd_requests_total', 'ALPHA'],
      ['etcd_request_errors_total', 'ALPHA'],
      ['apiserver_storage_objects', 'STABLE'],
      ['apiserver_storage_size_bytes', 'ALPHA'],
      ['apiserver_storage_events_received_total', 'ALPHA'],
      ['etcd_bookmark_counts', 'ALPHA'],
      ['apiserver_storage_list_total', 'ALPHA'],
      ['apiserver_storage_list_fetched_objects_total', 'ALPHA'],
      ['apiserver_storage_list_evaluated_objects_total', 'ALPHA'],
      ['apiserver_storage_list_returned_objects_total', 'ALPHA'],
      ['apiserver_watch_cache_events_dispatched_total', 'ALPHA'],
      ['apiserver_watch_cache_events_received_total', 'ALPHA'],
      ['apiserver_watch_cache_initializations_total', 'ALPHA'],
      ['apiserver_init_events_total', 'ALPHA'],
      ['apiserver_terminated_watchers_total', 'ALPHA'],
      ['watch_cache_capacity', 'ALPHA'],
      ['apiserver_watch_cache_resource_version', 'ALPHA'],
      ['apiserver_cache_list_total', 'ALPHA'],
      ['apiserver_cache_list_fetched_objects_total', 'ALPHA'],
      ['apiserver_cache_list_returned_objects_total', 'ALPHA'],
      ['apiserver_watch_cache_objects', 'ALPHA'],
      ['apiserver_watch_cache_events', 'ALPHA'],
      ['apiserver_watch_cache_watchers', 'ALPHA'],
      ['apiserver_admission_step_admission_duration_seconds', 'STABLE'],
      ['apiserver_admission_step_admission_duration_seconds_summary', 'ALPHA'],
      ['apiserver_admission_controller_admission_duration_seconds', 'STABLE'],
      ['apiserver_admission_webhook_admission_duration_seconds', 'STABLE'],
      ['apiserver_admission_webhook_rejection_count', 'ALPHA'],
      ['apiserver_admission_webhook_request_total', 'ALPHA'],
      ['authenticated_user_requests', 'ALPHA'],
      ['authentication_attempts', 'ALPHA'],
      ['authentication_duration_seconds', 'ALPHA'],
      ['authorization_attempts_total', 'ALPHA'],
      ['authorization_duration_seconds', 'ALPHA'],
      ['apiserver_authorization_decisions_total', 'ALPHA'],
      ['apiserver_requested_deprecated_apis', 'STABLE'],
      ['apiserver_authentication_config_controller_automatic_reloads_total', 'ALPHA'],
      ['apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds', 'ALPHA'],
      ['apiserver_authorization_config_controller_automatic_reloads_total', 'ALPHA'],
      ['apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds', 'ALPHA'],
      ['apiserver_request_terminations_total', 'ALPHA'],
      ['apiserver_request_aborts_total', 'ALPHA'],
      ['apiserver_request_post_timeout_total', 'ALPHA'],
    ];

    it('every exported metric declares a stability level', async () => {
      const text = await new ServerMetrics().registry.metrics();
      const helps = text.split('\n').filter((l) => l.startsWith('# HELP '));
      expect(helps.map((l) => l.split(' ')[2])).to.have.members(levels.map(([name]) => name));
      for (const [name, level] of levels) expect(helps.find((l) => l.startsWith(`# HELP ${name} `))).to.match(new RegExp(`^# HELP ${name} \\[${level}\\] \\S`));
    });

    it('the deprecated SLO latency is hidden; shown again with --show-hidden-metrics-for-version', async () => {
      expect(new ServerMetrics().stability.hiddenMetrics()).to.deep.equal(['apiserver_request_slo_duration_seconds', 'apiserver_storage_db_total_size_in_bytes']);
      const shown = await new ServerMetrics({ showHidden: true }).registry.metrics();
      expect(shown).to.include('# HELP apiserver_request_slo_duration_seconds [ALPHA] (Deprecated since 1.27.0) Response latency distribution');
    });

    it("Node's process and runtime metrics are declared ALPHA", async () => {
      const text = await new ServerMetrics().render();
      const runtime = text.split('\n').filter((l) => /^# HELP (process|nodejs)_/.test(l));
      expect(runtime.length).to.be.greaterThan(10);
      for (const help of runtime) expect(help).to.match(/^# HELP \S+ \[ALPHA\] \S/);
    });

    it('records requested deprecated APIs with upstream labels', async () => {
      const m = new ServerMetrics();
      m.requestedDeprecatedAPI({ group: 'flowcontrol.apiserver.orch.io', version: 'v1beta3', resource: 'flowschemas', subresource: 'status', removedRelease: '1.32' });
      expect(await m.registry.metrics()).to.include(
        'apiserver_requested_deprecated_apis{group="flowcontrol.apiserver.orch.io",version="v1beta3",resource="flowschemas",subresource="status",removed_release="1.32"} 1',
      );
    });
  });
});
