// The undo log a write takes, as pool pages (pure logic): which draw reuses a kept log, and which of the
// undo tablespace's pages a run reads, from the state read before run 1.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InnodbPool } from '../../src/sim/policies/innodb-lru';
import { reusesLog, UndoLogs } from '../../src/predict/innodb/undo-log';
import type { UndoState } from '../../src/predict/innodb/facts';

const BASE = 0x3000000;
const reads = (pool: InnodbPool) => pool.counters().Innodb_buffer_pool_reads;
const requests = (pool: InnodbPool) => pool.counters().Innodb_buffer_pool_read_requests;
const afterRestart = (cached: number): UndoState => ({
  writesSinceStartup: 0,
  spaces: 1,
  systemPagesCached: cached,
  logPagesCached: cached ? 15 : 0,
  spaceHeadersCached: 1,
  bitmapsCached: 1,
  inodePagesCached: 1,
});

function poolWith(undo: UndoLogs): InnodbPool {
  const pool = new InnodbPool(1000);
  for (const p of undo.cachedPages()) pool.preload(p);
  return pool;
}

describe('InnoDB undo logs', () => {
  test('the draw shown reuses after a restart with no write since, creates otherwise; a quarter of the draws take the other case', () => {
    assert.equal(reusesLog(0, { writesSinceStartup: 0 }), true);
    assert.equal(reusesLog(0, { writesSinceStartup: 3 }), false);
    assert.equal(reusesLog(0, undefined), false);
    assert.equal(reusesLog(3, { writesSinceStartup: 0 }), false);
    assert.equal(reusesLog(7, { writesSinceStartup: 3 }), true);
  });

  test("a pool that lost the segments' headers reads each run's own header and reused log; one that kept them reads none", () => {
    for (const [cached, perRun] of [
      [0, 2],
      [130, 0],
    ] as const) {
      const undo = new UndoLogs(afterRestart(cached), BASE, 0);
      const pool = poolWith(undo);
      for (let run = 0; run < 3; run++) {
        undo.startRun(pool);
        const before = reads(pool);
        const log = undo.begin(pool, 0);
        assert.equal(log.reused, true);
        pool.modify(log.page(0));
        assert.equal(reads(pool) - before, perRun, `${cached} headers cached, run ${run + 1}`);
      }
    }
  });

  test('creating a log costs 2 gets more than reusing one, and makes its page without a read', () => {
    const gets = (writes: number) => {
      const undo = new UndoLogs({ ...afterRestart(130), writesSinceStartup: writes }, BASE, 0);
      const pool = poolWith(undo);
      undo.startRun(pool);
      const [r0, q0] = [reads(pool), requests(pool)];
      pool.modify(undo.begin(pool, 0).page(0));
      return { gets: requests(pool) - q0, reads: reads(pool) - r0 };
    };
    assert.deepEqual(gets(0), { gets: 2, reads: 0 });
    assert.deepEqual(gets(5), { gets: 4, reads: 0 });
  });

  test('without the state read, every page is a hit, as before it was read', () => {
    const undo = new UndoLogs({ writesSinceStartup: 0 }, BASE, 77);
    const pool = new InnodbPool(1000);
    undo.startRun(pool);
    const log = undo.begin(pool, 0);
    assert.equal(log.paged, false);
    assert.equal(log.page(2), 79);
    assert.equal(reads(pool), 0);
    assert.equal(requests(pool), 1);
  });
});

test('after a restart, run k reuses where segment 3 + k kept a log; otherwise it creates', () => {
  const state = (kept: number[]): UndoState => ({ writesSinceStartup: 0, keptLogSlots: kept });
  assert.deepEqual(
    [0, 1, 2].map((run) => reusesLog(0, state([3, 4, 5]), run)),
    [true, true, true],
  );
  assert.deepEqual(
    [0, 1, 2].map((run) => reusesLog(0, state([4, 5, 6, 7]), run)),
    [false, true, true],
  );
  assert.deepEqual(
    [0, 1, 2].map((run) => reusesLog(0, state([]), run)),
    [false, false, false],
  );
});
