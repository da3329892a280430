// Shapes to page requests, the weighted mix, and the curve over pool sizes: pure, no server.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { btreePath, type TableLayout } from '../../src/workload/layout';
import { ShapeEmitter, type AccessShape } from '../../src/workload/shapes';
import { parseScript } from '../../src/workload/script';
import type { CompiledWorkload } from '../../src/workload/compiled';
import { buildTrace } from '../../src/workload/trace';
import { poolCurve, sizeForHitRatio } from '../../src/workload/curve';
import { PostgresPool } from '../../src/sim/policies/postgres-clock-sweep';
import { lruMissRatioCurve } from '../../src/sim/lru-mrc';
import { LruPool } from '../../src/sim/policies/lru';
import type { Value } from '../../src/workload/expression';
import { predictCompiled } from '../../src/workload/predict-workload';
import { workloadTable } from '../../src/cli/workload-output';

const ROWS = 100_000;
const index = btreePath(
  't_pkey',
  (k) => 1_000_000 + k,
  (level, k) => 2_000_000 + level * 10_000 + k,
  250,
  400,
  400,
);
const heap: TableLayout = { name: 't', pages: 1600, rows: ROWS, page: (k) => k, correlated: true };
/** A secondary index apart from `index`: leaves from 3,000,000, its root at 4,000,000. */
const secondaryIndex = () =>
  btreePath(
    'k_1',
    (k) => 3_000_000 + k,
    (level, k) => 4_000_000 + level * 10_000 + k,
    250,
    400,
    400,
  );
const vars = (o: Record<string, number>) => new Map<string, Value>(Object.entries(o).map(([k, v]) => [k, { int: true, v }]));

describe('access shapes', () => {
  test('a unique lookup: the root, the leaf of its key, the heap page of its row', () => {
    const out: number[] = [];
    const lookup: AccessShape = {
      kind: 'lookup',
      index,
      keyMin: 1,
      keyMax: ROWS,
      key: { variable: 'id' },
      rowsPerKey: 1,
      rows: { kind: 'heap', table: heap, correlated: true },
    };
    new ShapeEmitter().emit(lookup, vars({ id: 50_001 }), out);
    assert.deepEqual(out, [2_000_000, 1_000_125, 800]);
    out.length = 0;
    // Outside the key range: the descent, no row.
    new ShapeEmitter().emit(lookup, vars({ id: ROWS + 5 }), out);
    assert.equal(out.length, 2);
  });

  test('a range walks consecutive leaves and, correlated, consecutive heap pages; uncorrelated, a page per row', () => {
    const out: number[] = [];
    const range: AccessShape = {
      kind: 'range',
      index,
      keyMin: 1,
      keyMax: ROWS,
      from: { variable: 'a' },
      to: { variable: 'b' },
      rowsPerKeyUnit: 1,
      rows: { kind: 'heap', table: heap, correlated: true },
    };
    new ShapeEmitter().emit(range, vars({ a: 1, b: 1200 }), out);
    // 1,200 keys: leaves 0–2 (400 a leaf), heap pages 0–19 (62.5 rows a page).
    assert.deepEqual(out.slice(1), [1_000_000, 1_000_001, 1_000_002, ...Array.from({ length: 20 }, (_, k) => k)]);
    out.length = 0;
    new ShapeEmitter().emit({ ...range, rows: { kind: 'heap', table: heap, correlated: false }, limit: 10 }, vars({ a: 1, b: 1200 }), out);
    assert.equal(out.length, 2 + 10);
    assert.ok(new Set(out.slice(2)).size >= 8, 'uncorrelated rows land on scattered pages');
  });

  test("a written row's secondary entries: each changed index descended per row, at the same place for the same row", () => {
    const secondary = secondaryIndex();
    const update: AccessShape = {
      kind: 'lookup',
      index,
      keyMin: 1,
      keyMax: ROWS,
      key: { variable: 'id' },
      rowsPerKey: 1,
      rewrites: 1,
      entries: [{ index: secondary, descents: 2 }],
    };
    const once = (id: number) => {
      const out: number[] = [];
      new ShapeEmitter().emit(update, vars({ id }), out);
      return out;
    };
    const a = once(777);
    // Root and leaf of the primary key, the leaf rewritten, then the secondary's root and leaf twice.
    assert.equal(a.length, 3 + 4);
    assert.deepEqual(a.slice(0, 3), [2_000_000, 1_000_001, 1_000_001]);
    assert.deepEqual(a.slice(3, 5), a.slice(5, 7));
    assert.ok(a[4] >= 3_000_000 && a[4] < 3_000_250, 'a leaf of the secondary index');
    assert.deepEqual(once(777), a);
    const leaves = new Set(Array.from({ length: 200 }, (_, i) => once(1000 + i)[4]));
    assert.ok(leaves.size > 100, `rows next to each other have their entries on scattered leaves (${leaves.size} leaves for 200 rows)`);
    const range: AccessShape = {
      kind: 'range',
      index,
      keyMin: 1,
      keyMax: ROWS,
      from: { variable: 'a' },
      to: { variable: 'b' },
      rowsPerKeyUnit: 1,
      entries: [{ index: secondary, descents: 1 }],
    };
    const out: number[] = [];
    new ShapeEmitter().emit(range, vars({ a: 10, b: 19 }), out);
    assert.equal(out.length, 2 + 10 * 2, 'a range of ten rows changes ten entries');
  });

  test('a full leaf splits at its first insert, once; its upper keys are then on the new page', () => {
    const full = secondaryIndex();
    full.splits = { newPage: (k) => 5_000_000 + k, requests: (_k, out) => out.push(-1, -2), merge: (_k, out) => out.push(-3) };
    const emitter = new ShapeEmitter();
    const insert = (k: number) => {
      const out: number[] = [];
      emitter.emit(
        { kind: 'append', table: heap, rowsPerPage: 100, indexes: [{ index: full, keyMin: 1, keyMax: 250_000, key: { constant: k } }] },
        new Map(),
        out,
      );
      return out.slice(1);
    };
    const point = (k: number) => {
      const out: number[] = [];
      emitter.emit({ kind: 'lookup', index: full, keyMin: 1, keyMax: 250_000, key: { constant: k }, rowsPerKey: 1 }, new Map(), out);
      return out;
    };
    // Leaf 10 holds keys 10,001-11,000.
    assert.deepEqual(point(10_900), [4_000_000, 3_000_010], 'before the split, the leaf itself');
    assert.deepEqual(insert(10_100), [4_000_000, 3_000_010, -1, -2], 'the first insert splits it');
    assert.deepEqual(insert(10_200), [4_000_000, 3_000_010], 'the second finds room');
    assert.deepEqual(point(10_900), [4_000_000, 5_000_010], 'the upper half moved to the new page');
    assert.deepEqual(point(10_100), [4_000_000, 3_000_010]);
    assert.deepEqual(insert(20_100), [4_000_000, 3_000_020, -1, -2], 'another leaf splits on its own first insert');
    const purge = (k: number) => {
      const out: number[] = [];
      const entries = [{ index: full, descents: 1, removes: true }];
      emitter.emit({ kind: 'lookup', index, keyMin: 1, keyMax: ROWS, key: { constant: k }, rowsPerKey: 1, entries }, new Map(), out);
      return out.slice(2);
    };
    const removals = Array.from({ length: 400 }, (_, i) => purge(1 + i));
    assert.ok(
      removals.every((r) => (r.length === 3) === (r[2] === -3)),
      'a removal from a split leaf tries a merge; from a full one it does not',
    );
    assert.ok(removals.some((r) => r.length === 3) && removals.some((r) => r.length === 2));
  });

  test("a full page's first update moves the new version: onto the pages past the table's end, the free-space map searched as each fills, a new index entry", () => {
    const moves = { target: (m: number) => 7_000_000 + m, perPage: 2, fsm: [-10, -11], indexes: [{ path: index, unique: true }] };
    const update: AccessShape = {
      kind: 'lookup',
      index,
      keyMin: 1,
      keyMax: ROWS,
      key: { variable: 'id' },
      rowsPerKey: 1,
      rewrites: 1,
      rows: { kind: 'heap', table: heap, correlated: true, companion: (b) => 8_000_000 + b, moves },
    };
    const emitter = new ShapeEmitter();
    const once = (id: number) => {
      const out: number[] = [];
      emitter.emit(update, vars({ id }), out);
      return out;
    };
    // The key's root and leaf, the heap page read and rewritten, its visibility-map page; then the move.
    assert.deepEqual(once(50_001), [2_000_000, 1_000_125, 800, 800, 8_000_800, -10, -11, 7_000_000, 2_000_000, 1_000_125, 800]);
    assert.deepEqual(once(50_002), [2_000_000, 1_000_125, 800, 800, 8_000_800], 'the same page again: pruning made room, a HOT update');
    assert.deepEqual(once(1).slice(5), [7_000_000, 2_000_000, 1_000_000, 0], 'the session fills the page it moved to');
    assert.deepEqual(once(90_001).slice(5), [-10, -11, 7_000_001, 2_000_000, 1_000_225, 1440], 'a full destination: the free-space map, then a new page');
  });

  test('appends fill the last page, then the next', () => {
    const emitter = new ShapeEmitter();
    const append: AccessShape = { kind: 'append', table: heap, rowsPerPage: 3, indexes: [] };
    const out: number[] = [];
    for (let i = 0; i < 7; i++) emitter.emit(append, new Map(), out);
    assert.deepEqual(out, [1599, 1599, 1599, 1600, 1600, 1600, 1601]);
  });
});

function workload(text: string): CompiledWorkload {
  const scripts = parseScript(text, 'w.sql');
  return {
    engine: 'postgresql',
    server: 'test',
    scripts: scripts.map((script) => ({
      script,
      statements: script.commands
        .filter((c) => c.kind === 'sql')
        .map((c) => ({
          text: (c as { text: string }).text,
          line: c.line,
          role: 'read' as const,
          notes: [],
          shapes: [
            {
              kind: 'lookup' as const,
              index,
              keyMin: 1,
              keyMax: ROWS,
              key: { variable: /:(\w+)/.exec((c as { text: string }).text)![1] },
              rowsPerKey: 1,
              rows: { kind: 'heap' as const, table: heap, correlated: false },
            },
          ],
        })),
    })),
    fixed: new Map(),
    poolPages: 512,
    pageBytes: 8192,
    relations: [
      { name: 't', pages: 1600 },
      { name: 't_pkey', pages: 250 },
    ],
    makePool: (pages) => new PostgresPool(pages),
    notes: [],
  };
}

describe('the workload trace and its curve', () => {
  test("a write's purge comes `purgeLag` transactions after it, with the values its statement drew", () => {
    const w = workload('\\set a random(1, 100000)\nUPDATE t SET v = 1 WHERE id = :a;\n');
    const stmt = w.scripts[0].statements[0];
    const row = stmt.shapes[0];
    stmt.purge = [{ kind: 'pages', pages: [9_000_000] }, row];
    const trace = (lag: number) => [...buildTrace({ ...w, purgeLag: lag }, 0, 10, 1).accesses];
    const own = trace(0).slice(0, 3);
    // With no lag, each transaction's purge comes before the next transaction: its marker, then its row again.
    assert.deepEqual(trace(0).slice(3, 7), [9_000_000, ...own]);
    const lagged = trace(3);
    const plain = trace(0);
    // Unlagged, each transaction is 3 requests and its purge 4: transactions 0, 1, 2 start at 0, 7, 14.
    assert.deepEqual(lagged.slice(0, 9), [...plain.slice(0, 3), ...plain.slice(7, 10), ...plain.slice(14, 17)], 'three transactions before the first purge');
    assert.deepEqual(lagged.slice(9, 13), [9_000_000, ...own], "the first purge repeats the first transaction's row");
    assert.equal(lagged.filter((p) => p === 9_000_000).length, 10 - 3, 'purges of the last three transactions fall after the trace');
  });

  test('scripts are chosen by weight, and per-statement executions are counted in the measured part', () => {
    const w = workload(
      '\\set a random(1, 100000)\n-- bufferlens: weight 3\nSELECT 1 FROM t WHERE id = :a;\n-- bufferlens: weight 1\nSELECT 2 FROM t WHERE id = :a;\n',
    );
    const trace = buildTrace(w, 1000, 20_000, 9);
    const [a, b] = trace.executions;
    assert.equal(a + b, 20_000);
    assert.ok(Math.abs(a / (a + b) - 0.75) < 0.02, `share ${a / (a + b)}`);
    assert.equal(trace.accesses.length - trace.measuredFrom, 20_000 * 3);
  });

  test('a uniform mix: misses fall as the pool grows; replayed through LRU the curve is the exact stack-distance curve', () => {
    const w = workload('\\set a random(1, 100000)\nSELECT 1 FROM t WHERE id = :a;\n');
    const trace = buildTrace(w, 0, 50_000, 3);
    const sizes = [64, 256, 512, 1024, 2048, 4096];
    const curve = poolCurve(w, trace, sizes);
    for (let i = 1; i < sizes.length; i++) assert.ok(curve.points[i].missRatio <= curve.points[i - 1].missRatio + 1e-9);
    assert.equal(curve.points[2].current, true);
    const lru = poolCurve({ ...w, makePool: (p) => new LruPool(p) }, trace, sizes);
    const exact = lruMissRatioCurve(trace.accesses, sizes);
    lru.points.forEach((p, i) => assert.ok(Math.abs(p.missRatio - exact.missRatios[i]) < 1e-12));
    // Past the data (1,850 pages) only first touches miss.
    const distinct = new Set(trace.accesses).size;
    assert.equal(curve.points[5].misses, distinct);
  });

  test('the size serving a share of the requests is interpolated between the sizes tried', () => {
    const pts = [0.5, 0.9, 0.98, 1].map((h, i) => ({
      poolPages: 2 ** i * 100,
      poolBytes: 2 ** i * 100 * 8192,
      current: false,
      requests: 1,
      misses: 1 - h,
      hitRatio: h,
      missRatio: 1 - h,
      readsPerTransaction: 0,
      perStatement: [],
    }));
    const at95 = sizeForHitRatio(pts, 0.95)!;
    assert.ok(at95.poolBytes > pts[1].poolBytes && at95.poolBytes < pts[2].poolBytes);
    const at999 = sizeForHitRatio(pts, 0.999)!.poolBytes;
    assert.ok(at999 > pts[2].poolBytes && at999 < pts[3].poolBytes);
    assert.equal(sizeForHitRatio(pts.slice(0, 3), 0.99), undefined);
  });

  test('above the full-simulation limit the curve is replayed by miniature simulation, close to the full one', () => {
    // Sampling keeps whole 64-page units: it needs many of them, so a table of 200,000 pages.
    const big: TableLayout = { name: 'big', pages: 200_000, rows: 12_800_000, page: (k) => k, correlated: true };
    const w = workload('\\set a random(1, 100000)\nSELECT 1 FROM t WHERE id = :a;\n');
    w.scripts[0].statements[0].shapes = [
      { kind: 'lookup', index, keyMin: 1, keyMax: ROWS, key: { variable: 'a' }, rowsPerKey: 1, rows: { kind: 'heap', table: big, correlated: false } },
    ];
    const trace = buildTrace(w, 100_000, 400_000, 4);
    const sizes = [20_000, 100_000];
    const full = poolCurve(w, trace, sizes);
    const sampled = poolCurve(w, trace, sizes, { fullAccesses: 300_000 });
    assert.ok(sampled.sampleRate < 0.25);
    sampled.points.forEach((p, i) => assert.ok(Math.abs(p.missRatio - full.points[i].missRatio) < 0.03, `${p.missRatio} vs ${full.points[i].missRatio}`));
  });
});

describe('the workload report', () => {
  // BEGIN and COMMIT as the compiler leaves them: control statements, no pages.
  function transactional(): CompiledWorkload {
    const w = workload('\\set a random(1, 100000)\nSELECT 1 FROM t WHERE id = :a;\nSELECT 2 FROM t WHERE id = :a;\n');
    const control = (text: string, line: number) => ({ text, line, role: 'control' as const, notes: [], shapes: [] });
    const [script] = parseScript('\\set a random(1, 100000)\nBEGIN;\nSELECT 1 FROM t WHERE id = :a;\nSELECT 2 FROM t WHERE id = :a;\nCOMMIT;\n', 'w.sql');
    w.scripts[0] = { script, statements: [control('BEGIN', 2), ...w.scripts[0].statements, control('COMMIT', 5)] };
    return w;
  }

  test('sizes given without the pool now still include it, so each statement is reported at the pool now', () => {
    const w = transactional();
    const report = predictCompiled(w, { scripts: [], fixed: new Map(), sizes: [64 * 8192, 4096 * 8192], warmup: 1000, transactions: 5000 });
    assert.deepEqual(
      report.curve.map((p) => p.poolPages),
      [64, 512, 4096],
    );
    const now = report.curve.find((p) => p.current)!;
    assert.equal(now.poolPages, 512);
    const reads = report.statements.map((s, i) => (s.role === 'control' ? 'control' : now.statements[i] ? 'reported' : 'missing'));
    assert.deepEqual(reads, ['control', 'reported', 'reported', 'control']);
  });

  test('the listed statements’ shares add up to 100 %: BEGIN and COMMIT are left out of the denominator', () => {
    const text = workloadTable(predictCompiled(transactional(), { scripts: [], fixed: new Map(), warmup: 1000, transactions: 5000 }));
    const shares = [...text.matchAll(/([\d.]+) % of executions/g)].map((m) => Number(m[1]));
    assert.equal(shares.length, 2);
    assert.ok(Math.abs(shares[0] + shares[1] - 100) < 0.2, `shares ${shares.join(' + ')}`);
    assert.doesNotMatch(text, /not executed in the simulation/);
  });
});
