// What an exported report is called by default: the statement's first words and the day.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportName, oneLine } from '../../src/shared/export-name';

test('an export is named after the statement and the day it was measured', () => {
  assert.equal(
    exportName('SELECT count(*), max(note)\n  FROM orders WHERE id > 5', '2026-12-01T08:15:00.000Z', 'json'),
    'select-count-max-note-from-orders-2026-12-01.json',
  );
  assert.equal(exportName('-- only a comment\n/* and another */ ;', '2026-12-01T08:15:00.000Z', 'md'), 'bufferlens-report-2026-12-01.md');
  assert.equal(exportName('UPDATE "Weird/Name" SET x = 1', '2025-01-02T00:00:00Z', 'html'), 'update-weird-name-set-x-1-2025-01-02.html');
});

test('a statement on one line, shortened', () => {
  assert.equal(oneLine('SELECT 1\n\n  FROM t'), 'SELECT 1 FROM t');
  assert.equal(oneLine('x'.repeat(100), 10), `${'x'.repeat(9)}…`);
});
