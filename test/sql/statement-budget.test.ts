// The budget above a statement of a document, as the editor finds it after a measurement: the document
// split as the lenses split it, the statement matched by its text (whitespace aside).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { budgetOfStatement, documentPosition, errorSpan } from '../../src/sql/statement-budget';
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

test('a position in a measured text that begins before its statement (a comment, indentation) lands on the same character', () => {
  const text = ['SELECT 1;', '', '  SELECT v', '  FORM accounts;'].join('\n');
  assert.deepEqual(documentPosition(text, '-- why\n  SELECT v\n  FORM accounts', 'postgresql', { line: 3, column: 8 }), { line: 3, character: 7 });
  assert.deepEqual(documentPosition(text, '  SELECT v\n  FORM accounts', 'postgresql', { line: 1, column: 10 }), { line: 2, character: 9 });
});

test('an error underlines what starts at its column: a word, else the symbols there, never a word ending before it', () => {
  assert.deepEqual(errorSpan('SELECT abc) FROM t', 10), { start: 10, end: 11 });
  assert.deepEqual(errorSpan('SELECT a FRM t', 13), { start: 13, end: 14 });
  assert.deepEqual(errorSpan('SELECT a FROM t WHERE a == 1', 24), { start: 24, end: 26 });
  assert.deepEqual(errorSpan('SELECT 1 FRM', 12), { start: 12, end: 13 });
});
