// `npm run package` must give a .vsix that holds the runtime and nothing else (packaged from a copy: its
// production build would rewrite the dist/ the CLI tests beside it read).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageInCopy } from './support/package-copy';

test('the .vsix holds dist/, media/, package.json, README and LICENSE only', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bufferlens-vsix-'));
  try {
    const vsix = join(dir, 'bufferlens.vsix');
    packageInCopy(vsix);
    const listing = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).trim().split('\n');
    const files = listing.filter((f) => f.startsWith('extension/')).map((f) => f.slice('extension/'.length));
    for (const required of ['package.json', 'readme.md', 'LICENSE.txt', 'dist/extension.js', 'dist/server.js', 'dist/cli.js', 'media/dist/report.js']) {
      assert.ok(files.includes(required), `${required} missing from ${files.join(', ')}`);
    }
    const stray = files.filter((f) => !/^(dist\/|media\/|package\.json$|readme\.md$|LICENSE\.txt$|changelog\.md$)/i.test(f));
    assert.deepEqual(stray, []);
    assert.ok(!files.some((f) => f.endsWith('.map')), 'a production package carries no source maps');
    assert.ok(!files.some((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('node_modules/')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the extension host's bundles never read the global navigator, which VS Code reports as an error at activation", () => {
  for (const bundle of ['dist/extension.js', 'dist/server.js']) {
    assert.doesNotMatch(readFileSync(bundle, 'utf8'), /\bnavigator\b/, bundle);
  }
});
