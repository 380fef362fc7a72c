// Builds the web console (issue #22) into dist/console/: one bundled, minified app.js (Preact and
// the few libraries it uses, bundled from node_modules so the console needs no network), the
// stylesheet and index.html. The server only serves these files; nothing in lib/ imports them.
// Usage: node console/build.mjs [--outdir DIR]
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const i = process.argv.indexOf('--outdir');
const outdir = i > 0 ? path.resolve(process.argv[i + 1]) : path.join(here, '..', 'dist', 'console');

await mkdir(outdir, { recursive: true });
await build({
  entryPoints: [path.join(here, 'src', 'main.tsx')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outfile: path.join(outdir, 'app.js'),
  legalComments: 'none',
  logLevel: 'warning',
});
await copyFile(path.join(here, 'index.html'), path.join(outdir, 'index.html'));
await copyFile(path.join(here, 'style.css'), path.join(outdir, 'style.css'));
