// Runs every test file under test/ with node's test runner (TypeScript through tsx).
// Three files at a time on two cores: each database test starts private servers of its own (a temporary
// directory, a free port), so two never share a server, and every test polls for readiness rather than
// timing anything, so a neighbour's load slows it without changing what it checks. At two files at a time
// a fresh clone's CI kept 1.15 of the two cores busy (2026-12-07: 11 min 9 s, 12 min 49 s of CPU; the tests
// 10 min 39 s), the rest waiting on servers starting, syncing and stopping; at three the tests took 7 min 39 s.
// TEST_CONCURRENCY overrides it (1 to debug a file's output).
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
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${process.env.TEST_CONCURRENCY ?? '3'}`, '--test-force-exit', ...reporter, ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
