// The schema corpus's generator (pure) and its recordings replayed offline: seeds draw every kind of schema
// the corpus claims, statements name rows that exist, and across every recorded run a prediction of 0 where
// the engine measured pages comes with the model's own "not modelled" note — never a 0 standing for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeOf, customerOf, drawSchema, rowHash, sqlHash, type SchemaSpec } from './schemas/spec';
import { schemaStatements, uuidOf } from './schemas/statements';
import { loadStatements } from './schemas/load';
import { poolSizes } from './schemas/run';
import { FIT_SEEDS, HELD_OUT_SEEDS, replaySchemaRecording, schemaRecordings } from './schemas/recordings';
import { seeded } from './innodb-corpus';

const SEEDS = Array.from({ length: 40 }, (_, k) => k + 1);

test('a seed draws the same schema every time, and neighbouring seeds draw different ones', () => {
  assert.deepEqual(drawSchema(7), drawSchema(7));
  const distinct = new Set(SEEDS.map((s) => JSON.stringify({ ...drawSchema(s), seed: 0 })));
  assert.ok(distinct.size >= SEEDS.length - 1, `${distinct.size} distinct schemas of ${SEEDS.length}`);
});

test('forty seeds cover every key, date order, spread, index kind and long notes', () => {
  const specs = SEEDS.map(drawSchema);
  const seen = (f: (s: SchemaSpec) => unknown) => new Set(specs.map(f));
  assert.deepEqual([...seen((s) => s.orders.key)].sort(), ['composite', 'serial', 'uuid']);
  assert.deepEqual([...seen((s) => s.orders.placed)].sort(), ['jittered', 'none', 'ordered']);
  assert.deepEqual([...seen((s) => s.orders.customer)].sort(), ['skewed', 'uniform']);
  assert.deepEqual([...seen((s) => s.orders.dateIndex)].sort(), ['covering', 'partial', 'plain']);
  assert.ok(specs.some((s) => s.orders.longNotesPercent > 0) && specs.some((s) => s.orders.longNotesPercent === 0));
  // At most about 60 MB of long notes, whatever the draw.
  for (const s of specs) assert.ok((s.orders.rows * s.orders.longNotesPercent * s.orders.noteBytes) / 100 <= 60_000_000);
});

test('held-out and studied seeds are apart', () => {
  assert.equal(HELD_OUT_SEEDS.filter((s) => FIT_SEEDS.includes(s)).length, 0);
});

test('the row values are one integer hash in TypeScript and in SQL', () => {
  // The SQL text evaluated with the same integer arithmetic: (g + salt) * M % P.
  const [, m, p] = /\* (\d+) % (\d+)\)$/.exec(sqlHash('g', 3))!;
  for (const g of [1, 2, 99_999, 300_000]) assert.equal(rowHash(g, 3), ((g + 3) * Number(m)) % Number(p));
  assert.ok(Number.isSafeInteger((300_000 + 7) * Number(m)));
  const s = drawSchema(3);
  for (let g = 1; g < 2_000; g++) {
    const c = customerOf(s, g);
    assert.ok(c >= 1 && c <= s.customers.rows);
  }
  // The unique code is a bijection of the row number below the prime.
  assert.equal(new Set(Array.from({ length: 5_000 }, (_, g) => codeOf(g + 1))).size, 5_000);
});

test("statements name the schema's rows and leave out shapes it cannot have", () => {
  for (const seed of SEEDS.slice(0, 12)) {
    const s = drawSchema(seed);
    for (const dialect of ['postgresql', 'mariadb'] as const) {
      const statements = schemaStatements(s, seeded(seed), dialect);
      const shapes = statements.map((x) => x.shape);
      assert.equal(shapes.includes('primary key range'), s.orders.key === 'serial');
      assert.equal(shapes.includes('long values read'), s.orders.longNotesPercent > 0);
      const point = statements.find((x) => x.shape === 'point by primary key')!.sql;
      if (s.orders.key === 'uuid') assert.match(point, dialect === 'mariadb' ? /'[0-9a-f]{32}'/ : /'[0-9a-f]{8}-[0-9a-f]{4}-/);
      const load = loadStatements(s, dialect).join(';\n');
      assert.equal(/INCLUDE|WHERE status = 1/.test(load), dialect === 'postgresql' && s.orders.dateIndex !== 'plain');
    }
  }
  assert.equal(uuidOf(1, 'mariadb').length, 32);
});

test('pools are set from the data: below it, about half of it, above all of it', () => {
  assert.deepEqual(poolSizes(131, 8), [22, 66, 182]);
  assert.deepEqual(poolSizes(20, 8), [8, 10, 35]);
});

test('over every recorded run, a 0 predicted where pages were measured says what it does not model', () => {
  const recordings = schemaRecordings();
  assert.ok(recordings.length > 0, 'the schema corpus has recordings');
  for (const { key, recording } of recordings) {
    for (const r of replaySchemaRecording(key, recording)) {
      if ((r.measuredLogical ?? 0) > 0 && r.predictedLogical === 0) {
        assert.ok(r.unmodelled.length > 0, `${key} ${r.pool} ${r.state} ${r.shape} run ${r.run}: 0 predicted with no note`);
      }
    }
  }
});
