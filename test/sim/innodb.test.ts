// InnoDB model: one test per rule, then the seed 000/001 scenarios.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InnodbPool } from '../../src/sim/policies/innodb-lru';
import { SeededRandom } from '../../src/sim/random';

test('midpoint insertion: once the list has 512 pages, a page read from disk enters the old sublist', () => {
  const pool = new InnodbPool(2000, { readAheadThreshold: 0 });
  for (let p = 0; p < 600; p++) pool.access(p * 100); // sparse pages: no read-ahead pattern
  assert.equal(pool.isInOldSublist(599 * 100), true);
  assert.equal(pool.counters().Innodb_buffer_pool_pages_made_young, 0, 'nothing is made young before the first eviction');
});

function scanResistance(oldBlocksTime: number): number {
  // 10 ms per page request, so re-reads of the hot set 100 requests apart are 1,000 ms apart.
  const pool = new InnodbPool(1000, { oldBlocksTime, msPerAccess: 10, readAheadThreshold: 0 });
  for (let p = 0; p < 1500; p++) pool.access(50_000 + p * 7); // evictions start: freed_page_clock > 0
  const hot = Array.from({ length: 100 }, (_, i) => i * 3);
  for (let round = 0; round < 3; round++) for (const p of hot) pool.access(p);
  // A scan over many new pages, each requested three times in a row (rows on one page).
  for (let p = 0; p < 3000; p++) for (let k = 0; k < 3; k++) pool.access(100_000 + p * 7);
  const before = pool.counters().sync_reads;
  for (const p of hot) pool.access(p);
  return pool.counters().sync_reads - before;
}

test('scan resistance: with innodb_old_blocks_time the hot set survives a large scan; with 0 it does not', () => {
  assert.equal(scanResistance(1000), 0);
  assert.ok(scanResistance(0) > 50, 'without the time rule the scan pushes the hot set out');
});

test('linear read-ahead: an ordered walk of an area triggers the next area at its border page', () => {
  const pool = new InnodbPool(4096);
  for (let p = 64; p < 128; p++) pool.access(p);
  const c = pool.counters();
  assert.equal(c.sync_reads, 64);
  assert.equal(c.Innodb_buffer_pool_read_ahead, 64);
  assert.ok(pool.contains(128) && pool.contains(191) && !pool.contains(192));
  // MySQL: read-ahead pages are not in _reads.
  assert.equal(c.Innodb_buffer_pool_reads, 64);
});

test('linear read-ahead: a descending walk reads the previous area', () => {
  const pool = new InnodbPool(4096);
  for (let p = 127; p >= 64; p--) pool.access(p);
  assert.equal(pool.counters().Innodb_buffer_pool_read_ahead, 64);
  assert.ok(pool.contains(0) && pool.contains(63));
});

test('linear read-ahead is refused on out-of-order access', () => {
  const pool = new InnodbPool(4096);
  const rnd = new SeededRandom(5);
  const pages = Array.from({ length: 64 }, (_, i) => 64 + i);
  for (let i = pages.length - 1; i > 0; i--) {
    const j = rnd.int(i + 1);
    [pages[i], pages[j]] = [pages[j], pages[i]];
  }
  for (const p of pages) pool.access(p);
  assert.equal(pool.counters().Innodb_buffer_pool_read_ahead, 0);
});

test('threshold 56 tolerates 8 missing pages on MySQL and 7 on MariaDB; threshold 0 turns it off', () => {
  const walk = (product: 'mysql' | 'mariadb', threshold = 56) => {
    const pool = new InnodbPool(4096, { product, readAheadThreshold: threshold });
    for (let p = 64; p < 128; p++) if (p < 65 || p > 72) pool.access(p); // pages 65–72 skipped: 8 misses
    return pool.counters().Innodb_buffer_pool_read_ahead;
  };
  assert.equal(walk('mysql'), 64);
  assert.equal(walk('mariadb'), 0);
  assert.equal(walk('mysql', 0), 0);
});

test('MariaDB counts read-ahead pages inside Innodb_buffer_pool_reads', () => {
  const pool = new InnodbPool(4096, { product: 'mariadb' });
  for (let p = 64; p < 128; p++) pool.access(p);
  const c = pool.counters();
  assert.equal(c.Innodb_buffer_pool_reads, 128);
  assert.equal(c.Innodb_buffer_pool_reads - c.Innodb_buffer_pool_read_ahead, 64);
});

test('read-ahead pages evicted unread count as read_ahead_evicted', () => {
  const pool = new InnodbPool(600, { area: 64 });
  for (let p = 0; p < 64; p++) pool.access(p); // triggers read-ahead of 64..127
  for (let p = 0; p < 2000; p++) pool.access(10_000 + p * 100); // push everything out
  assert.equal(pool.counters().Innodb_buffer_pool_read_ahead_evicted, 64);
});

// Seed 001 (MySQL 8.4, 128 MiB = 8,192 pages): a cold full scan of a clustered index whose first 32 leaf
// pages are fragment pages (4–35) and the rest whole 64-page extents from page 64 on.
test('seed 001: a cold scan of a 3,622-page table gives ≈ 96 synchronous reads and ≈ 3,449 read-ahead pages', () => {
  const leaves = [...Array.from({ length: 32 }, (_, i) => 4 + i), ...Array.from({ length: 3513 }, (_, i) => 64 + i)];
  const spacePages = Math.ceil((64 + 3513) / 64) * 64;
  const pool = new InnodbPool(8192, { spacePages });
  pool.access(3); // the root
  for (const p of leaves) pool.access(p);
  const c = pool.counters();
  assert.ok(Math.abs(c.sync_reads - 96) <= 2, `synchronous reads ${c.sync_reads}`);
  assert.ok(Math.abs(c.Innodb_buffer_pool_read_ahead - 3449) / 3449 < 0.03, `read-ahead ${c.Innodb_buffer_pool_read_ahead}`);
  const before = c.sync_reads;
  pool.access(3);
  for (const p of leaves) pool.access(p);
  assert.equal(pool.counters().sync_reads, before, 'runs 2 and 3 read nothing');
});

// Seed 000: random-key inserts into a secondary index twice the pool.
function insertReads(changeBuffering: 'all' | 'none', unique: boolean): number {
  const pool = new InnodbPool(8192, { changeBuffering, readAheadThreshold: 0 });
  const rnd = new SeededRandom(11);
  const leaves = 16384;
  for (let i = 0; i < 400_000; i++) {
    pool.access(1_000_000 + Math.floor(i / 100)); // clustered index: ascending key, right-most leaf
    pool.modifySecondaryLeaf(2_000_000 + rnd.int(leaves), !unique);
  }
  return pool.counters().Innodb_buffer_pool_reads;
}

test('seed 000: change buffering on reads far less than off; a UNIQUE index reads as much as off', () => {
  const on = insertReads('all', false);
  const off = insertReads('none', false);
  const unique = insertReads('all', true);
  assert.ok(off / on > 10, `off ${off} / on ${on} = ${(off / on).toFixed(1)}×`);
  assert.equal(unique, off);
});

test('pages created by writes enter at the young head, without a read', () => {
  const pool = new InnodbPool(1000, { readAheadThreshold: 0 });
  for (let p = 0; p < 800; p++) pool.access(p * 100);
  pool.create(999_999);
  assert.equal(pool.contains(999_999), true);
  assert.equal(pool.isInOldSublist(999_999), false);
  assert.equal(pool.counters().sync_reads, 800);
});
