// ESLint flat config: typescript-eslint's recommended rules, plus the layering of
// ARCHITECTURE.md § Layers (imports point down only) enforced with no-restricted-imports.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Each layer of lib/ and the layers it may import (besides itself and lib/apis/vendor.ts). */
const LAYERS = {
  cmd: '*',
  controlplane: '*',
  server: ['metrics', 'audit', 'flowcontrol', 'endpoints', 'admission', 'authorization', 'authentication', 'registry', 'apiextensions', 'client', 'storage', 'request', 'apis', 'cel', 'apimachinery'],
  controllers: ['metrics', 'client', 'registry', 'apiextensions', 'storage', 'request', 'apis', 'cel', 'apimachinery'],
  endpoints: ['metrics', 'audit', 'flowcontrol', 'admission', 'authorization', 'authentication', 'registry', 'apiextensions', 'client', 'storage', 'request', 'apis', 'cel', 'apimachinery'],
  authentication: ['metrics', 'client', 'cel', 'request', 'apimachinery'],
  authorization: ['metrics', 'client', 'cel', 'request', 'apimachinery'],
  admission: ['metrics', 'client', 'cel', 'request', 'apimachinery', 'apis'],
  registry: ['metrics', 'apiextensions', 'storage', 'apis', 'request', 'apimachinery'],
  // Custom resource definitions' schemas, rules, printer columns and conversion (issue #14): pure
  // code over the expression language, the kinds and apimachinery, used by the registry and above.
  apiextensions: ['metrics', 'client', 'cel', 'apis', 'apimachinery'],
  // The audit policy, event and backends (issue #16; upstream apiserver/pkg/audit and its log and
  // webhook plugins) and API Priority and Fairness (upstream apiserver/pkg/util/flowcontrol): each
  // a sibling of authentication, used by the API filters.
  audit: ['metrics', 'client', 'request', 'apis', 'apimachinery'],
  flowcontrol: ['metrics', 'client', 'request', 'apis', 'apimachinery'],
  client: ['metrics', 'storage', 'apimachinery'],
  storage: ['metrics', 'apimachinery'],
  request: ['apimachinery'],
  apis: ['apimachinery'],
  cel: ['apimachinery'],
  // Metric declarations with their stability (upstream component-base/metrics): every layer may
  // declare and record metrics.
  metrics: ['apimachinery'],
  apimachinery: [],
};
const ALL = Object.keys(LAYERS);

/** Deepest folder nesting below a layer's root that the layer rules cover. */
const MAX_DEPTH = 8;

// An import is judged by where it lands: from a file `depth` folders below lib/, exactly `depth`
// `../` reach lib/ itself, so only then does the next segment name a layer. A layer's name may
// also name a folder inside a layer (lib/apis/flowcontrol, lib/registry/authentication); relative
// paths that stay inside a layer never match.
const layerRules = Object.entries(LAYERS)
  .filter(([, allowed]) => allowed !== '*')
  .flatMap(([layer, allowed]) => {
    const forbidden = ALL.filter((l) => l !== layer && !allowed.includes(l));
    if (forbidden.length === 0) return [];
    // lib/apis/vendor.ts is the one file of lib/apis every layer may read.
    const targets = forbidden.map((l) => (l === 'apis' ? 'apis/(?!vendor\\.js$)' : `${l}/`)).join('|');
    return Array.from({ length: MAX_DEPTH }, (_, i) => i + 1).map((depth) => ({
      files: [`lib/${layer}/${'*/'.repeat(depth - 1)}*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: `^(?:\\.\\./){${depth}}(?:${targets})`,
                message: `lib/${layer} may import only: ${allowed.join(', ') || 'nothing of ours'} (ARCHITECTURE.md § Layers)`,
              },
            ],
          },
        ],
      },
    }));
  });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...layerRules,
);
