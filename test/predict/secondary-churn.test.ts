// The replay of a table-wide update over a secondary index's rows (secondary-churn.ts): the build's leaves,
// the unique-index pattern where the update runs in key order, and which dead versions stayed alone in their
// entries against pageinspect's view of a real index (a fixture recorded on PostgreSQL 15).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replayWindow, secondaryChurn, type WindowRow } from '../../src/predict/postgres/secondary-churn';
import { keyOrderChurn } from '../../src/predict/postgres/version-churn';

const OLD_PAGES = 1000;

/** Distinct keys from 1, each row's live version appended in key order past the old heap, 30 a page. */
function keyOrdered(count: number, moved = true): WindowRow[] {
  return Array.from({ length: count }, (_, r) => ({ key: r + 1, block: moved ? OLD_PAGES + Math.floor(r / 30) : Math.floor(r / 30), offset: 1 + (r % 30) }));
}

test('a sorted build fills each leaf to 90 %: 366 int4 keys a leaf', () => {
  const r = replayWindow({ rows: keyOrdered(366 * 4), first: 0 }, OLD_PAGES, 4, 0);
  assert.equal(r.leavesBefore, 4);
  // A leaf takes a 367th key, and gives it to the next leaf with the 368th (_bt_buildadd moves the last item on).
  assert.equal(replayWindow({ rows: keyOrdered(366 * 4 + 1), first: 0 }, OLD_PAGES, 4, 0).leavesBefore, 4);
  assert.equal(replayWindow({ rows: keyOrdered(366 * 4 + 2), first: 0 }, OLD_PAGES, 4, 0).leavesBefore, 5);
});

test('rows the update did not move keep one live entry: none alone, no leaf split', () => {
  const r = replayWindow({ rows: keyOrdered(2000, false), first: 0 }, OLD_PAGES, 4, 0);
  assert.equal(
    r.alone.reduce((a, b) => a + b, 0),
    0,
  );
  assert.equal(r.leavesAfter, r.leavesBefore);
});

test("an update in key order gives the unique index's pattern, leaf by leaf (version-churn.ts)", () => {
  const churn = keyOrderChurn(4);
  const r = replayWindow({ rows: keyOrdered(churn.keysPerLeaf * 3), first: 0 }, OLD_PAGES, 4, 0);
  assert.equal(r.leavesAfter, 3 * churn.leavesPerLeaf);
  for (let k = 0; k < churn.keysPerLeaf * 3; k++) {
    // The last leaf of the window is its rightmost: it has no high key and fills one entry further, so it is left out.
    if (k >= churn.keysPerLeaf * 2) break;
    assert.equal(r.alone[k], churn.posting[k % churn.keysPerLeaf] === 1 ? 0 : 1, `key offset ${k}`);
  }
});

interface Fixture {
  firstNewBlock: number;
  leavesAfter: number;
  windows: Array<{ scanFrom: number; keys: number[]; blocks: number[]; offsets: number[]; first: number; alone: number[] }>;
  wide: { scanFrom: number; scanned: number; keys: number[]; blocks: number[]; offsets: number[]; first: number; leaves: number };
}

const fixture = () => JSON.parse(readFileSync(join(__dirname, '../fixtures/predict/secondary-churn/pg15-table-wide-update.json'), 'utf8')) as Fixture;

test('dead versions alone in their entries after a table-wide update in heap order, against pageinspect (PostgreSQL 15)', () => {
  const f = fixture();
  for (const w of f.windows) {
    const rows = w.keys.map((key, r) => ({ key, block: w.blocks[r], offset: w.offsets[r] }));
    const c = secondaryChurn({ rows, first: w.first }, f.firstNewBlock, 4, w.alone.length);
    const truth = w.alone.reduce((a, b) => a + b, 0);
    const mean = c.alone.reduce((a, b) => a + b, 0);
    const perStart = c.perStart.map((p) => p.reduce((a, b) => a + b, 0));
    assert.ok(Math.abs(mean - truth) <= 2, `k > ${w.scanFrom}: ${mean.toFixed(1)} predicted alone, ${truth} measured`);
    assert.ok(
      truth >= Math.min(...perStart) && truth <= Math.max(...perStart),
      `k > ${w.scanFrom}: ${truth} within ${Math.min(...perStart)}–${Math.max(...perStart)}`,
    );
    // Per row too: where every start agrees, pageinspect does.
    c.alone.forEach((p, k) => {
      if (p === 0 || p === 1) assert.equal(p, w.alone[k], `k > ${w.scanFrom}, row ${k}`);
    });
    assert.ok(
      Math.abs(c.leavesPerRow * 150_000 - f.leavesAfter) <= 0.05 * f.leavesAfter,
      `${(c.leavesPerRow * 150_000).toFixed(0)} leaves against ${f.leavesAfter}`,
    );
  }
});

test("the leaves holding 5,000 scanned rows' live entries after the update, against pageinspect", () => {
  const f = fixture();
  const w = f.wide;
  const rows = w.keys.map((key, r) => ({ key, block: w.blocks[r], offset: w.offsets[r] }));
  const c = secondaryChurn({ rows, first: w.first }, f.firstNewBlock, 4, w.scanned);
  assert.ok(
    Math.min(...c.leaves) <= w.leaves && w.leaves <= Math.max(...c.leaves),
    `${w.leaves} leaves within ${Math.min(...c.leaves)}–${Math.max(...c.leaves)}`,
  );
  assert.ok(Math.abs(c.leaves.reduce((a, b) => a + b, 0) / c.leaves.length - w.leaves) <= 1);
});

test("a scan near the index's first key: one start where the rows begin with it, and never a start past the scan", () => {
  const churn = keyOrderChurn(4);
  const rows = keyOrdered(churn.keysPerLeaf * 3);
  const fromStart = secondaryChurn({ rows, first: 100, startsIndex: true }, OLD_PAGES, 4, 50);
  assert.equal(fromStart.perStart.length, 1);
  fromStart.alone.forEach((p, k) => assert.equal(p, churn.posting[100 + k] === 1 ? 0 : 1, `row ${100 + k}`));
  // Without knowing that, no start passes the scan's first row: every scanned row is replayed, on a leaf.
  const unknown = secondaryChurn({ rows, first: 20 }, OLD_PAGES, 4, 50);
  assert.equal(unknown.perStart.length, 10);
  const farStart = replayWindow({ rows, first: 20 }, OLD_PAGES, 4, 300);
  assert.ok(
    farStart.leafOf.slice(20, 70).every((l) => l >= 0),
    'the scanned rows are in the replay',
  );
});
