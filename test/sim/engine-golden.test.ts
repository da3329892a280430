// Golden counts per pool size for the engine models (libCacheSim style): one fixed trace of scans, a
// uniform working set, a hot set and a second scan, replayed at six sizes. A change here is a behaviour
// change of a policy: it must be deliberate, explained and re-recorded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PostgresPool } from '../../src/sim/policies/postgres-clock-sweep';
import { InnodbPool, type InnodbPoolOptions } from '../../src/sim/policies/innodb-lru';
import { hitHeavy, sequential, uniform } from '../../src/sim/traces';

const SIZES = [64, 256, 1024, 2048, 4096, 8192];

function goldenTrace(): Int32Array {
  const parts = [sequential(0, 3000), uniform(40_000, 4000, 7), hitHeavy(40_000, 2000), sequential(10_000, 5000), uniform(20_000, 12_000, 9)];
  const trace = new Int32Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) {
    trace.set(p, o);
    o += p.length;
  }
  return trace;
}

const trace = goldenTrace();

test('PostgreSQL clock sweep: [hits, reads] per shared_buffers size', () => {
  const got: Record<number, number[]> = {};
  for (const size of SIZES) {
    const pool = new PostgresPool(size);
    for (const p of trace) pool.access(p);
    const c = pool.counters();
    got[size] = [c.shared_blks_hit, c.shared_blks_read];
    assert.equal(c.shared_blks_hit + c.shared_blks_read, trace.length);
  }
  for (let i = 1; i < SIZES.length; i++) assert.ok(got[SIZES[i]][1] <= got[SIZES[i - 1]][1], 'reads never grow with the pool');
  assert.deepEqual(got, {
    64: [3282, 104718],
    256: [13210, 94790],
    1024: [51005, 56995],
    2048: [63138, 44862],
    4096: [85142, 22858],
    8192: [91378, 16622],
  });
});

function innodb(options: InnodbPoolOptions, counters: string[]): Record<number, number[]> {
  const got: Record<number, number[]> = {};
  for (const size of SIZES) {
    const pool = new InnodbPool(size, options);
    for (const p of trace) pool.access(p);
    const c = pool.counters();
    got[size] = counters.map((k) => c[k]);
  }
  return got;
}

test('InnoDB midpoint LRU with linear read-ahead (MySQL): [requests, sync reads, read-ahead, read-ahead evicted] per size', () => {
  const got = innodb({}, ['Innodb_buffer_pool_read_requests', 'sync_reads', 'Innodb_buffer_pool_read_ahead', 'Innodb_buffer_pool_read_ahead_evicted']);
  assert.deepEqual(got, {
    64: [108000, 96661, 201366, 191106],
    256: [108000, 86734, 180361, 164163],
    1024: [108000, 48479, 7936, 16],
    2048: [108000, 36555, 7872, 46],
    4096: [108000, 14414, 7912, 39],
    8192: [108000, 10298, 7912, 40],
  });
});

test("InnoDB with MariaDB's page cleaner (innodb_lru_scan_depth 1536): [requests, sync reads, read-ahead, read-ahead evicted, cleaner evicted] per size", () => {
  const got = innodb({ product: 'mariadb', pageCleaner: { lruScanDepth: 1536 } }, [
    'Innodb_buffer_pool_read_requests',
    'sync_reads',
    'Innodb_buffer_pool_read_ahead',
    'Innodb_buffer_pool_read_ahead_evicted',
    'page_cleaner_evicted',
  ]);
  // Pools of 256 pages or fewer behave as without a cleaner (it wakes only for an LRU above 256 pages,
  // BUF_LRU_MIN_LEN); above, its evictions shrink as the pool grows.
  assert.deepEqual(got, {
    64: [108000, 96661, 201366, 191106, 0],
    256: [108000, 86734, 180361, 164163, 0],
    1024: [108000, 92046, 7936, 16, 99771],
    2048: [108000, 51334, 7808, 46, 58184],
    4096: [108000, 27999, 7912, 50, 32667],
    8192: [108000, 10632, 7912, 40, 11613],
  });
});
