// The budget above a statement of a document, as the editor finds it after a measurement: the document
// split as the lenses split it, the statement matched by its text (whitespace aside).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { budgetOfStatement, documentPosition } from '../../src/sql/statement-budget';
import { formatBound } from '../../src/shared/budget';

const doc = [
  'SELECT 1;',
  '-- bufferlens: budget logical <= 10, physical(cold) <= 2',
  'SELECT *',
  '  FROM t WHERE id = 5;',
  '',
  '-- bufferlens: budget logical << 3',
  'SELECT 2;',
  'CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;',
].join('\n');

test('the statement measured is found by its text and its budget read from the lines above it', () => {
  const found = budgetOfStatement(doc, 'SELECT * FROM t   WHERE id = 5', 'postgresql');
  assert.ok(found && 'budget' in found);
  assert.deepEqual(found.budget.bounds.map(formatBound), ['logical <= 10', 'physical(cold) <= 2']);
  assert.deepEqual(found.budget.lines, [{ line: 1, count: 2 }]);
  assert.equal(budgetOfStatement(doc, 'SELECT 1', 'postgresql'), undefined, 'no budget above it');
  assert.equal(budgetOfStatement(doc, 'SELECT 3', 'postgresql'), undefined, 'not in the document');
});

test('an unreadable budget is reported on its line, for a diagnostic', () => {
  const found = budgetOfStatement(doc, 'SELECT 2', 'mysql');
  assert.ok(found && 'error' in found);
  assert.equal(found.line, 5);
  assert.match(found.error, /"logical << 3" is not a bound/);
});

test("a server's error position in the statement is placed in the file", () => {
  const text = 'SELECT 1;\n\n-- orders\n  SELECT v\n  FORM accounts;\n';
  assert.deepEqual(documentPosition(text, 'SELECT v\n  FORM accounts', 'postgresql', { line: 2, column: 8 }), { line: 4, character: 7 });
  assert.deepEqual(documentPosition(text, 'SELECT v\n  FORM accounts', 'postgresql', { line: 1, column: 8 }), { line: 3, character: 9 });
  assert.equal(documentPosition(text, 'SELECT 2', 'postgresql', { line: 1, column: 1 }), undefined);
});
