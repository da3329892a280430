// InnoDB model: one test per rule, then the seed 000/001 scenarios.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InnodbPool } from '../../src/sim/policies/innodb-lru';
import { freeBitsBytes } from '../../src/sim/policies/innodb-change-buffer';
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
  // The change buffer's root page takes one slot of the pool, so the two differ by a few reads.
  assert.ok(Math.abs(unique - off) / off < 0.001, `unique ${unique}, off ${off}`);
});

test('pages created by writes enter at the young head, without a read', () => {
  const pool = new InnodbPool(1000, { readAheadThreshold: 0 });
  for (let p = 0; p < 800; p++) pool.access(p * 100);
  pool.create(999_999);
  assert.equal(pool.contains(999_999), true);
  assert.equal(pool.isInOldSublist(999_999), false);
  assert.equal(pool.counters().sync_reads, 800);
});

// MariaDB 10.5+'s page cleaner (buf_pool_t::need_LRU_eviction, buf_flush_LRU_list_batch).
test('the page cleaner keeps innodb_lru_scan_depth pages free: a 1,014-page pool holds 49–257 pages', () => {
  const pool = new InnodbPool(1014, { product: 'mariadb', readAheadThreshold: 0, pageCleaner: { lruScanDepth: 1536 } });
  const lengths: number[] = [];
  for (let p = 0; p < 5000; p++) {
    pool.access(p * 7);
    lengths.push(pool.cachedPages().length);
  }
  assert.equal(Math.max(...lengths), 257, 'woken once the LRU passes BUF_LRU_MIN_LEN (256) with fewer than 768 free');
  assert.equal(Math.min(...lengths.slice(300)), 50, 'evicts down to 5 % of the pool (49), then the next page enters');
  assert.ok(pool.counters().page_cleaner_evicted > 4000);
});

test('with a scan depth well under the pool, the cleaner keeps that reserve and no more', () => {
  const pool = new InnodbPool(1014, { product: 'mariadb', readAheadThreshold: 0, pageCleaner: { lruScanDepth: 100 } });
  for (let p = 0; p < 5000; p++) pool.access(p * 7);
  const n = pool.cachedPages().length;
  assert.ok(n >= 1014 - 100 && n <= 1014 - 50, `LRU ${n}`);
});

test('without the cleaner (MySQL) the pool fills completely', () => {
  const pool = new InnodbPool(1014, { readAheadThreshold: 0 });
  for (let p = 0; p < 5000; p++) pool.access(p * 7);
  assert.equal(pool.cachedPages().length, 1014);
  assert.equal(pool.counters().page_cleaner_evicted, 0);
});

// ibuf_insert_low: a tree at its cap + 10 pages refuses entries and contracts; MariaDB merges only on reads.
test('a full change buffer refuses inserts, contracts an 8-page area, and the page is read as usual', () => {
  const pool = new InnodbPool(400, { product: 'mariadb', readAheadThreshold: 0, changeBuffering: 'all', entriesPerIbufPage: 10 });
  // cap: 25 % of 400 = 100 pages; from then on each page the tree grows by contracts it (after insert),
  // and at 110 pages entries are refused.
  let i = 0;
  while (pool.counters().ibuf_refused_too_big === 0 && i < 10_000) {
    const before = pool.counters();
    const hit = pool.modifySecondaryLeaf(1_000_000 + i++ * 3, true);
    const after = pool.counters();
    if (after.ibuf_refused_too_big === 0) {
      assert.equal(hit, false);
      // Until contractions read index pages into the pool, nothing evicts the tree's pages.
      if (after.ibuf_merges === 0) assert.equal(after.sync_reads, 1, 'buffered inserts read only the bitmap page, once (the tree pages are created)');
      if (after.ibuf_size < 100) assert.equal(after.ibuf_merges, 0, 'no contraction under the cap');
    } else {
      assert.equal(before.ibuf_size, 110, 'refused at the cap + 10 pages');
      assert.equal(after.sync_reads - before.sync_reads, 1, 'the refused page is read');
      const areaMerges = after.ibuf_merges - before.ibuf_merges;
      assert.ok(areaMerges >= 1 && areaMerges <= 3, `one area of 8 page numbers, every third buffered: ${areaMerges}`);
    }
  }
  const c = pool.counters();
  assert.equal(c.ibuf_refused_too_big, 1);
  assert.ok(c.ibuf_merges > 1, 'contracted after inserts once at the cap');
  assert.equal(c.ibuf_merge_reads, c.ibuf_merges);
});

test('a leaf page whose free bits are used up takes no more buffered entries', () => {
  // 1,700 bytes free: class 3/32, rounded down to 2/32 = 1,024 bytes, so 68 entries of 15 bytes.
  assert.equal(freeBitsBytes(1700, 16384), 1024);
  assert.equal(freeBitsBytes(2100, 16384), 2048);
  assert.equal(freeBitsBytes(400, 16384), 0);
  const pool = new InnodbPool(400, {
    product: 'mariadb',
    readAheadThreshold: 0,
    changeBuffering: 'all',
    leafSpace: { freeBytes: 1700, entryBytes: 15, pageSize: 16384 },
  });
  for (let i = 0; i < 68; i++) assert.equal(pool.modifySecondaryLeaf(1_000_000, true), false);
  pool.modifySecondaryLeaf(1_000_000, true);
  const c = pool.counters();
  assert.equal(c.sync_reads, 2, 'the bitmap page once, then the refused leaf');
  assert.equal(c.ibuf_merged_entries, 68, 'reading the page merges what was buffered');
  // Its free space is now 1,700 − 69 × 15 = 665 bytes: class 1, 512 bytes, 34 entries once it leaves the pool.
});

test('MariaDB has no background merge; MySQL merges in the background', () => {
  const run = (product: 'mysql' | 'mariadb') => {
    const pool = new InnodbPool(4000, { product, readAheadThreshold: 0, changeBuffering: 'all', msPerAccess: 1 });
    for (let i = 0; i < 5000; i++) pool.modifySecondaryLeaf(1_000_000 + i, true);
    return pool.counters().ibuf_merges;
  };
  assert.equal(run('mariadb'), 0);
  assert.ok(run('mysql') > 0);
});

test("a pool seeded from the server's LRU keeps its order: the tail leaves first, old flags as given", () => {
  const pool = new InnodbPool(2048, { readAheadThreshold: 0 });
  const n = 1000;
  const pages = Array.from({ length: n }, (_, k) => 10_000 + k); // head … tail
  const old = pages.map((_, k) => (k >= 630 ? 1 : 0));
  pool.seed(pages, old);
  assert.deepEqual(pool.cachedPages(), pages);
  assert.equal(pool.isInOldSublist(10_000 + 700), true);
  assert.equal(pool.isInOldSublist(10_000 + 100), false);
  // Fill the free pages, then one more miss evicts the tail page, not the head's.
  for (let k = 0; k < 2048 - n; k++) pool.access(50_000 + k);
  pool.access(90_000);
  assert.equal(pool.contains(10_000 + n - 1), false);
  assert.equal(pool.contains(10_000), true);
  assert.equal(pool.counters().Innodb_buffer_pool_read_requests, 2048 - n + 1, 'seeding counts no request');
});

test("a seeded page's history decides whether a hit makes it young: first read over innodb_old_blocks_time before, and the pool has evicted since start-up", () => {
  const n = 1000;
  const pages = Array.from({ length: n }, (_, k) => 10_000 + k); // head … tail
  const old = pages.map((_, k) => (k >= 630 ? 1 : 0));
  const hitOldPage = (history?: { ageMs: number; freedPageClock: number }): boolean => {
    const pool = new InnodbPool(2048, { readAheadThreshold: 0, oldBlocksTime: 1000 });
    pool.seed(
      pages,
      old,
      history && { ageMs: pages.map(() => history.ageMs), clockAt: pages.map(() => 0), freedPageClock: history.freedPageClock },
    );
    pool.access(10_000 + 900);
    return pool.isInOldSublist(10_000 + 900);
  };
  assert.equal(hitOldPage({ ageMs: 5_000, freedPageClock: 7 }), false, 'read 5 s before, in a pool that has evicted: made young');
  assert.equal(hitOldPage({ ageMs: 200, freedPageClock: 7 }), true, 'read 0.2 s before: stays old');
  assert.equal(hitOldPage({ ageMs: 5_000, freedPageClock: 0 }), true, 'nothing evicted since start-up: nothing is made young');
  assert.equal(hitOldPage(), true, 'without a history, every page counts as just read');
  // A page read ahead and never requested: its first request is a first access (not made young, may trigger read-ahead).
  const pool = new InnodbPool(2048, { readAheadThreshold: 0, oldBlocksTime: 1000 });
  pool.seed(pages, old, { ageMs: pages.map(() => -1), clockAt: pages.map(() => 0), freedPageClock: 7 });
  pool.access(10_000 + 900);
  pool.access(10_000 + 900);
  assert.equal(pool.isInOldSublist(10_000 + 900), true, 'a read-ahead page, requested twice within a second: stays old');
});
