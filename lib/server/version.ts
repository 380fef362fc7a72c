/**
 * `/version`: the version document (spec 000 § Other paths). The server speaks the API of the
 * v1.30 era; clients use `major`/`minor` for skew checks.
 */
import { API_MAJOR, API_MINOR } from '../apimachinery/release.js';
import { SERVER_NAME } from '../apis/vendor.js';

/** The version document (upstream `version.Info` shape). */
export function versionInfo(): Record<string, string> {
  return {
    major: API_MAJOR,
    minor: API_MINOR,
    gitVersion: `v${API_MAJOR}.${API_MINOR}.0+${SERVER_NAME}`,
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
