// One classification of a statement, as the language server, measuring, budgets and workloads see it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyStatement, firstKeyword, writtenTables } from '../../../src/sql/classify/classify';
import { checkInnodbStatement } from '../../../src/sql/classify/mysql-kind';

test('the role follows what the statement does, not only its first word', () => {
  assert.equal(classifyStatement('SELECT c FROM t WHERE id = 1', 'postgresql').role, 'read');
  assert.equal(classifyStatement('  (SELECT 1)', 'mysql').role, 'read');
  assert.equal(classifyStatement('WITH d AS (DELETE FROM t RETURNING *) SELECT count(*) FROM d', 'postgresql').role, 'write');
  assert.equal(classifyStatement('UPDATE t SET k = k + 1 WHERE id = :id', 'postgresql').role, 'write');
  assert.equal(classifyStatement('REPLACE INTO t VALUES (1)', 'mysql').role, 'write');
  assert.equal(classifyStatement('BEGIN', 'postgresql').role, 'control');
  assert.equal(classifyStatement('COMMIT;', 'mysql').role, 'control');
  assert.equal(classifyStatement('SHOW TABLES', 'mysql').role, 'other');
  assert.equal(classifyStatement('VACUUM t', 'postgresql').role, 'other');
});

test('comments and strings never decide: the first keyword is past comments, a keyword in a string is no keyword', () => {
  assert.equal(firstKeyword('-- UPDATE\n/* DELETE */ SELECT 1', 'postgresql'), 'SELECT');
  assert.equal(firstKeyword('# DELETE\nSELECT 1', 'mysql'), 'SELECT');
  assert.equal(classifyStatement("SELECT 'UPDATE t SET a = 1'", 'mysql').role, 'read');
  assert.deepEqual(writtenTables("SELECT 'INSERT INTO x'", 'mysql'), []);
});

test('written tables and updated columns come with the class; refusals carry the reason', () => {
  const u = classifyStatement('UPDATE sbtest1 SET k = k + 1, c = ? WHERE id = 5', 'mysql');
  assert.deepEqual(u.writtenTables, ['sbtest1']);
  assert.deepEqual(u.updatedColumns, ['k', 'c']);
  assert.deepEqual(classifyStatement('DELETE FROM ONLY public.t WHERE a = 1', 'postgresql').writtenTables, ['public.t']);
  assert.deepEqual(classifyStatement('MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE', 'postgresql').writtenTables, ['t']);
  assert.match(classifyStatement('TRUNCATE t', 'mysql').refusal ?? '', /commits implicitly/);
  assert.match(classifyStatement('VACUUM t', 'postgresql').refusal ?? '', /transaction block/);
  assert.equal(classifyStatement('SELECT 1', 'postgresql').refusal, undefined);
});

test('MySQL/MariaDB refusals say the right reason: SAVEPOINT, SET TRANSACTION and KILL do not commit; KILL and SHUTDOWN are never sent', () => {
  for (const s of ['SAVEPOINT a', 'SET TRANSACTION READ ONLY', 'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED']) {
    const c = checkInnodbStatement(s, false);
    assert.ok(!c.ok && c.kind === 'refused', s);
    assert.doesNotMatch(c.reason, /commits implicitly/, s);
  }
  for (const s of ['KILL 5', 'KILL QUERY 5', 'SHUTDOWN']) {
    for (const commit of [false, true]) {
      const c = checkInnodbStatement(s, commit);
      assert.ok(!c.ok && c.kind === 'refused', `${s}, commit ${commit}`);
      assert.match(c.reason, /never sends it/);
    }
  }
  assert.match(classifyStatement('TRUNCATE t', 'mysql').refusal ?? '', /commits implicitly/);
});
