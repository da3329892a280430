// Which rollback segments kept a one-page undo log, from the order a restart read their pages in (pure logic).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { keptLogs } from '../../../src/measure/innodb/undo-state';

describe('InnoDB: which rollback segments kept a log, from the order a restart read their pages', () => {
  const header = (slot: number) => ({ t: 'SYSTEM', p: slot === 0 ? 6 : 44 + slot });
  const restartOrder = (kept: number[]) => [
    { t: 'SYSTEM', p: 7 },
    { t: 'SYSTEM', p: 3 },
    ...Array.from({ length: 128 }, (_, s) => [header(s), ...(kept.includes(s) ? [{ t: 'UNDO_LOG', p: 300 + s }] : [])]).flat(),
  ];

  test('each log belongs to the header read before it', () => {
    assert.deepEqual(keptLogs(restartOrder([3, 4, 5])), [3, 4, 5]);
    assert.deepEqual(keptLogs(restartOrder([])), []);
  });

  test('without every header cached the order tells nothing', () => {
    assert.equal(keptLogs(restartOrder([3]).slice(0, 60)), undefined);
  });
});
