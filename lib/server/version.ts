/**
 * `/version`: the version document (spec 000 § Other paths). The server speaks the API of the
 * v1.30 era; clients use `major`/`minor` for skew checks. The bundle (hack/bundle.sh) carries the
 * commit, tree state and date of its build; run from the sources, the commit and tree state are
 * empty and the date is the Unix epoch (upstream's default build date).
 */
import { API_MAJOR, API_MINOR } from '../apimachinery/release.js';
import { SERVER_NAME } from '../apis/vendor.js';

/** Set by the bundler (esbuild `--define`); absent when the sources run. */
declare const __BUILD_INFO__: { gitCommit: string; gitTreeState: string; buildDate: string } | undefined;

const BUILD = typeof __BUILD_INFO__ === 'undefined' ? { gitCommit: '', gitTreeState: '', buildDate: '1970-01-01T00:00:00Z' } : __BUILD_INFO__;

/** The version document (upstream `version.Info` shape). */
export function versionInfo(): Record<string, string> {
  return {
    major: API_MAJOR,
    minor: API_MINOR,
    gitVersion: `v${API_MAJOR}.${API_MINOR}.0+${SERVER_NAME}`,
    gitCommit: BUILD.gitCommit,
    gitTreeState: BUILD.gitTreeState,
    buildDate: BUILD.buildDate,
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
