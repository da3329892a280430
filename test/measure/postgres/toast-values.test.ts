// Which of a scan's conditions the query after the runs can ask alone (pure).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesOnly } from '../../../src/measure/postgres/toast-values';

test("a scan's condition is asked alone only where it names the scan's own alias and no parameter", () => {
  assert.equal(namesOnly('((d.id >= 100) AND (d.id <= 160))', 'd'), true);
  assert.equal(namesOnly("(d.x = 'a.b'::text) AND (d.v > 1.5)", 'd'), true);
  assert.equal(namesOnly('(b.id = a.k)', 'b'), false);
  assert.equal(namesOnly('(id = $1)', 'b'), false);
  assert.equal(namesOnly('("Big Docs".id = 3)', 'Big Docs'), true);
});
