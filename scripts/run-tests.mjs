// Runs every test file under test/ with node's test runner (TypeScript through tsx).
// Files run one at a time: the database tests start their own servers and the machine has two cores.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'fixtures' ? [] : find(p);
    return name.endsWith('.test.ts') ? [p] : [];
  });
}

const filter = process.argv.slice(2);
const files = find('test')
  .filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const reporter = process.env.CI ? ['--test-reporter=spec'] : [];
// --test-force-exit: a file whose tests are over (passed, failed or timed out) exits even with a handle left
// open, running its exit hooks, which stop the servers and editors it started; the run never hangs on it.
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-force-exit', ...reporter, ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
