// `vsce package` in a private copy of the project: its production build rewrites dist/, which the CLI tests
// running beside it (two test files at a time) read, so it never builds in the working tree. The copy holds
// everything vsce and the build read; node_modules is linked, not copied. Not a test file itself.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

/** Top-level entries (and the test fixtures) neither vsce nor the build reads. */
const LEFT_OUT = new Set(['node_modules', '.git', 'dist', '.lab', 'test-output', join('test', 'fixtures')]);

/** Packages the extension as `vsix` (a production build) from a copy of the project; the working tree is untouched. */
export function packageInCopy(vsix: string): void {
  const root = resolve('.');
  const copy = mkdtempSync(join(tmpdir(), 'bufferlens-pack-'));
  try {
    cpSync(root, copy, { recursive: true, filter: (src) => !LEFT_OUT.has(relative(root, src)) });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
    execFileSync('npx', ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--out', vsix], { cwd: copy, stdio: 'pipe' });
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
