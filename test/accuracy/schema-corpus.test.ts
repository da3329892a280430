// The schema corpus's generator (pure) and its recordings replayed offline: seeds draw every kind of schema
// the corpus claims, statements name rows that exist, and across every recorded run a prediction of 0 where
// the engine measured pages comes with the model's own "not modelled" note — never a 0 standing for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeOf, customerOf, drawSchema, rowHash, sqlHash, type SchemaSpec } from './schemas/spec';
import { schemaStatements, uuidOf } from './schemas/statements';
import { loadStatements } from './schemas/load';
import { poolSizes } from './schemas/run';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { FIT_SEEDS, HELD_OUT_SEEDS, schemaRecordings } from './schemas/recordings';
import { replayCheck, SCHEMA_FLOOR_FILE, type ReplayCheck, type SchemaShares } from './schemas/replay-check';
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

test('over every recorded run, a 0 predicted where pages were measured says what it does not model, and no recording falls below its floor', async () => {
  const keys = schemaRecordings().map((r) => r.key);
  assert.ok(keys.length > 0, 'the schema corpus has recordings');
  // Half the recordings in a worker, half here: the replay is this test's whole cost.
  const half = keys.filter((_, k) => k % 2 === 1);
  // tsx's require hook in the worker: the replay is TypeScript, as the test is.
  const file = join(process.cwd(), 'test/accuracy/schemas/replay-check.ts');
  const worker = new Worker(`require('tsx/cjs'); require(${JSON.stringify(file)});`, { eval: true, workerData: { keys: half } });
  const fromWorker = new Promise<ReplayCheck>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the replay worker exited with ${code}`)));
  });
  const here = replayCheck(keys.filter((_, k) => k % 2 === 0));
  const there = await fromWorker;
  await worker.terminate();
  assert.ok(here.runs > 0 && there.runs > 0, `runs replayed: ${here.runs} here, ${there.runs} in the worker`);
  assert.deepEqual([...here.zeros, ...there.zeros], []);
  // The floor (npm run accuracy:floor records it): per recording, the runs within 5 % may not fall.
  const floor = JSON.parse(readFileSync(SCHEMA_FLOOR_FILE, 'utf8')) as SchemaShares;
  const now = { ...here.shares, ...there.shares };
  assert.deepEqual(Object.keys(now).sort(), Object.keys(floor).sort(), 'every recording has a floor');
  for (const [key, f] of Object.entries(floor)) {
    for (const metric of ['logical', 'read'] as const) {
      assert.equal(now[key][metric][0], f[metric][0], `${key} ${metric}: runs counted`);
      assert.ok(
        now[key][metric][1] >= f[metric][1],
        `${key} ${metric}: ${now[key][metric][1]}/${now[key][metric][0]} within 5 %, the floor is ${f[metric][1]}`,
      );
    }
  }
});
