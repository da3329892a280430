import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitMysql } from '../../src/sql/split-mysql';

const sqls = (text: string) => splitMysql(text).map((s) => s.sql);

test('splits at semicolons, not inside strings with backslash escapes, backticks or comments', () => {
  const text = "select 'a;\\'b', \"c;\", `d;e` from t; # x;\nselect 2 -- y;\n; /* z; */ select 3";
  assert.deepEqual(sqls(text), ["select 'a;\\'b', \"c;\", `d;e` from t", 'select 2 -- y;', 'select 3']);
});

test('"--" without a following space is not a comment', () => {
  assert.deepEqual(sqls('select 1--1; select 2'), ['select 1--1', 'select 2']);
});

test('DELIMITER changes the delimiter, multi-character too, and BEGIN … END bodies stay whole', () => {
  const text = ['DELIMITER $$', 'CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END$$', 'DELIMITER //', 'select 3//', 'DELIMITER ;', 'select 4;'].join('\n');
  assert.deepEqual(sqls(text), ['CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END', 'select 3', 'select 4']);
});

test('executable and hint comments belong to the statement', () => {
  assert.deepEqual(sqls('/*!40101 SET NAMES utf8 */; SELECT /*+ NO_RANGE_OPTIMIZATION(t) */ 1;'), [
    '/*!40101 SET NAMES utf8 */',
    'SELECT /*+ NO_RANGE_OPTIMIZATION(t) */ 1',
  ]);
});
