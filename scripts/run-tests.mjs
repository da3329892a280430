// Runs every test file under test/ with node's test runner (TypeScript through tsx).
// Two files at a time, one per core: each database test starts private servers of its own (a temporary
// directory, a free port), so two never share a server, and every test polls for readiness rather than
// timing anything, so a neighbour's load slows it without changing what it checks. Run one at a time, the
// suite had grown to 17 minutes of CI's 20.
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
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-force-exit', ...reporter, ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
