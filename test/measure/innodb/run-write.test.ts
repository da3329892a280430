// What a run wrote, as the InnoDB prediction replays it: from the statement and the counters' deltas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeOfRun } from '../../../src/measure/innodb/run-write';

test('an UPDATE: its table, the rows the handler changed, the assigned columns and which add to themselves', () => {
  const w = writeOfRun('UPDATE sbtest1 SET k = k + 1, c = ? WHERE id = 5', 'UPDATE', { Handler_update: 1 }, true);
  assert.deepEqual(w, {
    otherWrite: { statement: 'UPDATE', table: 'sbtest1', rows: 1, rowsFrom: 'Handler_update', setColumns: ['k', 'c'], selfRelative: ['k'], rolledBack: true },
  });
});

test('a write to several tables keeps its rows unknown (its changes stay named as left out)', () => {
  const w = writeOfRun('UPDATE a JOIN b ON b.id = a.id SET a.v = 1, b.w = 2', 'UPDATE', { Handler_update: 7 }, true);
  assert.equal(w.otherWrite?.rows, undefined);
});

test("an INSERT counts InnoDB's inserted rows where the server has them, else the handler's; a read writes nothing", () => {
  assert.deepEqual(writeOfRun('INSERT INTO t (v) VALUES (1), (2)', 'INSERT', { Innodb_rows_inserted: 2, Handler_write: 9 }, false), {
    insert: { table: 't', rows: 2, rowsFrom: 'Innodb_rows_inserted', rolledBack: false },
  });
  assert.deepEqual(writeOfRun('INSERT INTO lab.t (v) VALUES (1)', 'INSERT', { Handler_write: 1 }, true), {
    insert: { table: 't', rows: 1, rowsFrom: 'Handler_write', rolledBack: true },
  });
  assert.deepEqual(writeOfRun('SELECT 1', 'SELECT', {}, true), {});
});

test('a comma-joined UPDATE and a DELETE … USING are several tables too; a single-table SET with a comma is not', () => {
  assert.equal(writeOfRun('UPDATE a, b SET a.v = 1 WHERE a.id = b.id', 'UPDATE', { Handler_update: 3 }, true).otherWrite?.rows, undefined);
  assert.equal(writeOfRun('DELETE FROM a USING a JOIN b ON b.id = a.id', 'DELETE', { Handler_delete: 3 }, true).otherWrite?.rows, undefined);
  assert.equal(writeOfRun("UPDATE a SET v = 1, w = 'x,y' WHERE id = 2", 'UPDATE', { Handler_update: 1 }, true).otherWrite?.rows, 1);
});
