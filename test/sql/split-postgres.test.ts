import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitPostgres } from '../../src/sql/split-postgres';

const sqls = (text: string) => splitPostgres(text).map((s) => s.sql);

test('splits at top-level semicolons and trims', () => {
  assert.deepEqual(sqls('select 1;\n  select 2 ;\n\nselect 3'), ['select 1', 'select 2', 'select 3']);
});

test('blank lines are not boundaries', () => {
  assert.deepEqual(sqls('select *\n\nfrom t\n\nwhere a = 1;'), ['select *\n\nfrom t\n\nwhere a = 1']);
});

test('semicolons inside strings, identifiers, comments and dollar bodies do not split', () => {
  const text = [
    "select ';', 'it''s;', E'a\\';b', \"x;y\" from t; -- c;",
    '/* a /* nested; */ still; */ select 2;',
    'create function f() returns int as $$ select 1; $$ language sql;',
    'do $body_1$ begin perform 1; end $body_1$;',
  ].join('\n');
  assert.deepEqual(sqls(text), [
    "select ';', 'it''s;', E'a\\';b', \"x;y\" from t",
    '/* a /* nested; */ still; */ select 2',
    'create function f() returns int as $$ select 1; $$ language sql',
    'do $body_1$ begin perform 1; end $body_1$',
  ]);
});

test('a $ inside an identifier or a positional parameter is not a dollar quote', () => {
  assert.deepEqual(sqls('select a$b, $1 from t; select 2'), ['select a$b, $1 from t', 'select 2']);
});

test('positions are 0-based line/character of the statement text', () => {
  const [a, b] = splitPostgres('-- head\nselect 1;\n  select\n  2;');
  assert.deepEqual(a.start, { line: 1, character: 0 });
  assert.deepEqual(a.end, { line: 1, character: 8 });
  assert.deepEqual(b.start, { line: 2, character: 2 });
  assert.deepEqual(b.end, { line: 3, character: 3 });
});

test('comment-only and empty input has no statements', () => {
  assert.deepEqual(sqls('  -- nothing\n/* at all */ ; ;'), []);
  assert.deepEqual(sqls('/* c */'), []);
  assert.deepEqual(sqls(''), []);
});
