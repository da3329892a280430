// The lint rules that keep the layering: proven by linting small offending files, not just by existing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';

const eslint = new ESLint();

async function restrictedImportErrors(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').length;
}

test('the simulator may import neither vscode nor node built-ins', async () => {
  assert.equal(await restrictedImportErrors('src/sim/x.ts', "import * as vscode from 'vscode';\nexport const a = vscode;\n"), 1);
  assert.equal(await restrictedImportErrors('src/sim/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n"), 1);
  assert.equal(await restrictedImportErrors('src/sim/x.ts', "import type { Reads } from '../shared/report';\nexport type A = Reads;\n"), 0);
});

test('the measurement core and the language server may not import vscode', async () => {
  for (const file of ['src/measure/x.ts', 'src/server/x.ts', 'src/cli/x.ts', 'src/db/x.ts']) {
    assert.equal(await restrictedImportErrors(file, "import * as vscode from 'vscode';\nexport const a = vscode;\n"), 1, file);
  }
});

test('webview code imports only shared types and browser libraries', async () => {
  assert.equal(await restrictedImportErrors('webview/report/x.ts', "import { a } from '../../src/measure/run';\nexport const b = a;\n"), 1);
  assert.equal(await restrictedImportErrors('webview/report/x.ts', "import { Client } from 'pg';\nexport const b = Client;\n"), 1);
  assert.equal(await restrictedImportErrors('webview/report/x.ts', "import type { Report } from '../../src/shared/report';\nexport type B = Report;\n"), 0);
});

test('Math.random is banned (simulations must be reproducible)', async () => {
  const [result] = await eslint.lintText('export const r = Math.random();\n', { filePath: 'src/sim/x.ts' });
  assert.ok(result.messages.some((m) => m.ruleId === 'no-restricted-syntax'));
});

test('the whole tree lints clean', async () => {
  const results = await eslint.lintFiles(['.']);
  const problems = results.flatMap((r) => r.messages.map((m) => `${r.filePath}:${m.line} ${m.ruleId}: ${m.message}`));
  assert.deepEqual(problems, []);
});

test('layers import downwards only: db, predict and shared cannot reach up', async () => {
  const up = async (file: string, from: string) => restrictedImportErrors(file, `import { a } from '${from}';\nexport const b = a;\n`);
  assert.equal(await up('src/db/x.ts', '../measure/run-measurement'), 1);
  assert.equal(await up('src/predict/postgres/x.ts', '../../measure/engine-session'), 1);
  assert.equal(await up('src/shared/x.ts', '../sql/incremental'), 1);
  assert.equal(await up('src/sim/x.ts', '../predict/prediction'), 1);
  assert.equal(await up('src/measure/x.ts', '../cli/args'), 1);
  // Downwards is fine.
  assert.equal(await up('src/measure/x.ts', '../predict/prediction'), 0);
  assert.equal(await up('src/predict/x.ts', '../sim/random'), 0);
});
