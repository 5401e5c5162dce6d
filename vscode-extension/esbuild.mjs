// Bundles the extension and its runtime dependencies (vscode-languageclient)
// into dist/extension.js, the one file of code the .vsix holds. `vscode` is
// the editor's own module. --production minifies and writes no source map.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');

await esbuild.build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  external: ['vscode'],
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
});
