// The lint rules that keep the shape: proven by linting small offending files, not just by existing. The
// whole tree is linted once per test run, by the build step of `npm test` (npm run lint), not again here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const eslint = new ESLint();

async function errors(filePath: string, code: string, rule: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === rule).length;
}
const importErrors = (file: string, from: string) => errors(file, `import { a } from '${from}';\nexport const b = a;\n`, 'no-restricted-imports');

test('every folder under src/ belongs to a layer of the lint config, and every layer names a folder that exists', async () => {
  const { LAYERS } = await import('../eslint.config.mjs');
  const folders = readdirSync('src').filter((f) => statSync(join('src', f)).isDirectory());
  const layered = LAYERS.flat();
  assert.deepEqual(
    folders.filter((f) => !layered.includes(f)),
    [],
    'a folder in no layer',
  );
  assert.deepEqual(
    layered.filter((f) => !folders.includes(f)),
    [],
    'a layer naming no folder',
  );
  // And each layered folder really gets its rule: an import of vscode is refused below the host.
  for (const f of layered.filter((x) => x !== 'views')) assert.equal(await importErrors(`src/${f}/x.ts`, 'vscode'), 1, f);
});

test('the simulator may import neither vscode nor node built-ins', async () => {
  assert.equal(await importErrors('src/sim/x.ts', 'vscode'), 1);
  assert.equal(await importErrors('src/sim/x.ts', 'node:fs'), 1);
  assert.equal(await errors('src/sim/x.ts', "import type { Reads } from '../shared/report';\nexport type A = Reads;\n", 'no-restricted-imports'), 0);
});

test('the model imports no database driver and no Node built-in: it is fed with facts', async () => {
  for (const from of ['pg', 'mysql2/promise', 'node:fs', 'fs', 'node:child_process'])
    assert.equal(await importErrors('src/predict/postgres/x.ts', from), 1, from);
  assert.equal(await importErrors('src/predict/x.ts', '../sim/random'), 0);
});

test('the language server reads text only: no measure, db, predict or workload', async () => {
  for (const from of ['../measure/engines', '../db/postgres', '../predict/prediction', '../workload/script', '../store/report-store']) {
    assert.equal(await importErrors('src/server/x.ts', from), 1, from);
  }
  assert.equal(await importErrors('src/server/x.ts', '../sql/classify/classify'), 0);
});

test('the workload sits above measuring and below the CLI and the editor', async () => {
  assert.equal(await importErrors('src/workload/x.ts', '../cli/args'), 1);
  assert.equal(await importErrors('src/workload/x.ts', '../views/connections'), 1);
  assert.equal(await importErrors('src/workload/x.ts', '../measure/engines'), 0);
  assert.equal(await importErrors('src/measure/x.ts', '../workload/script'), 1);
});

test('the measurement core, the CLI and the local servers may not import vscode', async () => {
  for (const file of ['src/measure/x.ts', 'src/server/x.ts', 'src/cli/x.ts', 'src/db/x.ts', 'src/local-server/x.ts']) {
    assert.equal(await importErrors(file, 'vscode'), 1, file);
  }
});

test('webview code imports only shared types and browser libraries', async () => {
  assert.equal(await importErrors('webview/report/x.ts', '../../src/measure/run'), 1);
  assert.equal(await importErrors('webview/report/x.ts', 'pg'), 1);
  assert.equal(
    await errors('webview/report/x.ts', "import type { Report } from '../../src/shared/report';\nexport type B = Report;\n", 'no-restricted-imports'),
    0,
  );
});

test('Math.random is banned (simulations must be reproducible)', async () => {
  assert.equal(await errors('src/sim/x.ts', 'export const r = Math.random();\n', 'no-restricted-syntax'), 1);
});

test('layers import downwards only: db, predict and shared cannot reach up', async () => {
  assert.equal(await importErrors('src/db/x.ts', '../measure/run-measurement'), 1);
  assert.equal(await importErrors('src/predict/postgres/x.ts', '../../measure/engine-session'), 1);
  assert.equal(await importErrors('src/shared/x.ts', '../sql/incremental'), 1);
  assert.equal(await importErrors('src/sim/x.ts', '../predict/prediction'), 1);
  assert.equal(await importErrors('src/measure/x.ts', '../cli/args'), 1);
  // Downwards is fine.
  assert.equal(await importErrors('src/measure/x.ts', '../predict/prediction'), 0);
  assert.equal(await importErrors('src/predict/x.ts', '../sim/random'), 0);
});

/** A function of `n` statements, each on its own line. */
const longFunction = (n: number) =>
  `export function f(a: number): number {\n${Array.from({ length: n }, (_, k) => `  a += ${k};`).join('\n')}\n  return a;\n}\n`;

test('a source file over 400 lines fails lint, one of 400 passes', async () => {
  const file = (n: number) => Array.from({ length: n }, (_, k) => `export const v${k} = ${k};`).join('\n') + '\n';
  assert.equal(await errors('src/predict/x.ts', file(401), 'max-lines'), 1);
  assert.equal(await errors('src/predict/x.ts', file(400), 'max-lines'), 0);
  assert.equal(await errors('webview/report/x.ts', file(401), 'max-lines'), 1);
});

test('a function over 80 lines fails lint, one of 80 passes', async () => {
  assert.equal(await errors('src/measure/x.ts', longFunction(80), 'max-lines-per-function'), 1);
  assert.equal(await errors('src/measure/x.ts', longFunction(70), 'max-lines-per-function'), 0);
});

test('a function with more than 40 branches fails lint', async () => {
  const branches = (n: number) =>
    `export function f(a: number): number {\n${Array.from({ length: n }, (_, k) => `  if (a === ${k}) return ${k};`).join('\n')}\n  return -1;\n}\n`;
  assert.equal(await errors('src/sql/x.ts', branches(40), 'complexity'), 1);
  assert.equal(await errors('src/sql/x.ts', branches(30), 'complexity'), 0);
});

test('a line over 160 characters fails lint, a long string or template too; one of 160 passes', async () => {
  const wide = `export const a = [${Array.from({ length: 40 }, (_, k) => k + 1000).join(', ')}];\n`;
  assert.ok(wide.length > 161);
  assert.equal(await errors('src/shared/x.ts', wide, 'max-len'), 1);
  assert.equal(await errors('src/shared/x.ts', `export const s = '${'x'.repeat(200)}';\n`, 'max-len'), 1);
  assert.equal(await errors('webview/report/x.ts', `export const s = \`${'x'.repeat(200)}\`;\n`, 'max-len'), 1);
  assert.equal(await errors('src/shared/x.ts', `export const s = '${'x'.repeat(140)}';\n`, 'max-len'), 0);
});
