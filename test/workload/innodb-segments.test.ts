// A writing transaction's rollback segment, taken in turn: pure, no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TableLayout } from '../../src/workload/layout';
import { ShapeEmitter, type AccessShape, type AppendShape } from '../../src/workload/shapes';
import { rollbackSegments } from '../../src/workload/innodb-segments';

const undoLog: TableLayout = { name: 'undo', pages: 1, rows: 0, page: (i) => 9_000_000 + i, correlated: true };
const segments = rollbackSegments(5_000_000);
const begin: AccessShape = { kind: 'transaction', segments };
const undo: AppendShape = { kind: 'append', table: undoLog, rowsPerPage: 60, indexes: [], segments };
const purge: AccessShape = { kind: 'appended', of: undo };

function transaction(emitter: ShapeEmitter): { pages: number[]; undoPage: number; purged: number } {
  const pages: number[] = [];
  emitter.emit(begin, new Map(), pages);
  const records: number[] = [];
  emitter.emit(undo, new Map(), records);
  const read: number[] = [];
  emitter.emit(purge, new Map(), read);
  return { pages, undoPage: records[0], purged: read[0] };
}

test("transactions take the rollback segments in turn; each one's undo records go to its segment's page, which purge reads back", () => {
  const emitter = new ShapeEmitter();
  const turns = Array.from({ length: segments.count + 1 }, () => transaction(emitter));
  const headers = new Set(turns.slice(0, segments.count).map((t) => t.pages[0]));
  assert.equal(headers.size, segments.count, 'each of the first 128 transactions requests a header of its own');
  assert.deepEqual(turns[segments.count].pages, turns[0].pages, 'the 129th takes the first segment again');
  for (const t of turns) {
    assert.ok(t.pages.includes(t.undoPage), "the records go to the undo page the transaction's start requested");
    assert.equal(t.purged, t.undoPage, 'purge reads back the page the records went to');
  }
  assert.notEqual(turns[0].undoPage, turns[1].undoPage, 'consecutive transactions write different undo pages');
  const transactionSystem = turns.map((t) => t.pages.filter((p) => turns.every((u) => u.pages.includes(p))));
  assert.equal(transactionSystem[0].length, 1, "one page is every transaction's: the transaction system's header");
});

test("a segment's pages are an area apart, so turns taken in order read nothing ahead", () => {
  const emitter = new ShapeEmitter();
  const first = [transaction(emitter), transaction(emitter)].map((t) => t.pages[0]);
  assert.ok(first[1] - first[0] >= 64, `headers ${first[0]} and ${first[1]}`);
});
