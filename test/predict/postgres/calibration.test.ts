// The PostgreSQL model's calibration in one place: every entry says what it decides, where it came from
// and on which versions; and the model's reshaped folders take no number from anywhere else (lint).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import { PG_CALIBRATION, PG_CALIBRATION_ENTRIES } from '../../../src/predict/postgres/calibration';

test('every calibration entry names what it decides, its provenance and the versions it holds for', () => {
  const entries = Object.entries(PG_CALIBRATION_ENTRIES);
  assert.ok(entries.length >= 10);
  for (const [name, e] of entries) {
    assert.ok(Number.isFinite(e.value), name);
    assert.ok(e.what.length > 20, `${name}: what it decides`);
    assert.match(e.provenance, /fitted|measured|set by hand|gate|tolerance/, `${name}: how the number was found`);
    assert.match(e.versions, /PostgreSQL \d+/, `${name}: the versions`);
    assert.equal(PG_CALIBRATION[name as keyof typeof PG_CALIBRATION], e.value);
  }
});

test('a number in the plan model outside calibration, layout constants and guesses fails lint', async () => {
  const eslint = new ESLint();
  const lint = async (filePath: string, code: string) =>
    (await eslint.lintText(code, { filePath }))[0].messages.filter((m) => m.ruleId === 'no-restricted-syntax').length;
  assert.equal(await lint('src/predict/postgres/nodes/x.ts', 'export const f = (x: number) => x > 0.8;\n'), 1);
  assert.equal(await lint('src/predict/postgres/history/x.ts', 'export const f = (x: number) => x * 8192;\n'), 1);
  assert.equal(await lint('src/predict/postgres/nodes/x.ts', 'export const f = (x: number) => (x + 0.5) * 2 - 1;\n'), 0);
  assert.equal(await lint('src/predict/postgres/calibration.ts', 'export const f = (x: number) => x > 0.8;\n'), 0);
});
