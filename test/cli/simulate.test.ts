// `bufferlens simulate` and `bufferlens bench`, run as programs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../support/cli';
import { encodeOracleGeneral, encodeU32 } from '../../src/sim/trace-format';
import { uniform } from '../../src/sim/traces';
import { replay } from '../../src/sim/simulate';
import { makeModel } from '../../src/sim/models';

const dir = mkdtempSync(join(tmpdir(), 'bufferlens-sim-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('simulate replays a u32 trace with the same counts as the library, for every model', () => {
  const trace = uniform(50_000, 2_000, 3);
  const file = join(dir, 'trace.u32');
  writeFileSync(file, encodeU32(trace));
  for (const model of ['lru', 'clock', 'postgresql', 'innodb'] as const) {
    const r = cli('simulate', '--model', model, '--pool', '500', '--trace', file, '--json');
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out);
    const expected = replay(makeModel(model, 500), trace);
    assert.equal(out.model, model);
    assert.equal(out.pool, 500);
    assert.equal(out.accesses, 50_000);
    assert.equal(out.misses, expected.misses);
    assert.equal(out.hits + out.misses, out.accesses);
    assert.equal(out.missRatio, expected.missRatio);
    for (const key of ['seconds', 'accessesPerSecond']) assert.equal(typeof out[key], 'number');
  }
});

test('simulate reads libCacheSim oracleGeneral records (u64 object ids)', () => {
  const ids = [1n, 2n, 3n, 1n, 2n, 4n, 2n ** 40n, 1n];
  const file = join(dir, 'trace.oracleGeneral');
  writeFileSync(file, encodeOracleGeneral(ids));
  const r = cli('simulate', '--model', 'lru', '--pool', '3', '--trace', file, '--format', 'oracleGeneral', '--json');
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out);
  // 1 2 3 miss, 1 2 hit, 4 evicts 3, 2^40 evicts 1, 1 evicts 2... → misses: 1,2,3,4,2^40,1 = 6
  assert.deepEqual([out.accesses, out.hits, out.misses], [8, 2, 6]);
});

test('simulate rejects a truncated trace and a missing file with one line', () => {
  const bad = join(dir, 'bad.u32');
  writeFileSync(bad, Buffer.from([1, 2, 3]));
  const r = cli('simulate', '--model', 'lru', '--pool', '3', '--trace', bad);
  assert.equal(r.code, 1);
  assert.match(r.err, /multiple of 4 bytes/);
  const missing = cli('simulate', '--model', 'lru', '--pool', '3', '--trace', join(dir, 'nope'));
  assert.equal(missing.code, 2);
  assert.match(missing.err, /cannot read .*ENOENT/);
});

test("bench --json prints the contract's result shape with a baseline", () => {
  const r = cli('bench', '--json', '--accesses', '20000');
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out);
  assert.ok(Array.isArray(out.results));
  const models = new Set(out.results.map((x: { model: string }) => x.model));
  for (const m of ['lru', 'clock', 'postgresql', 'innodb', 'map-lru (baseline)']) assert.ok(models.has(m), m);
  for (const x of out.results) {
    assert.equal(typeof x.model, 'string');
    assert.ok(x.accesses > 0 && x.seconds >= 0 && x.accessesPerSecond > 0);
  }
  assert.ok(out.bytesPerMillionPagePool.postgresql < 64 * 1048576);
  assert.ok(out.bytesPerMillionPagePool.innodb < 64 * 1048576);
});

test('simulate streams a file of many blocks and keeps ids apart that share their low 31 bits', () => {
  // 200,000 records: more than one block of the reader; ids 2^31 + k and k must be different pages.
  const ids: Array<number | bigint> = [];
  for (let i = 0; i < 100_000; i++) ids.push(i % 1000, 2 ** 31 + (i % 1000));
  const file = join(dir, 'wide.oracleGeneral');
  writeFileSync(file, encodeOracleGeneral(ids));
  for (const model of ['lru', 'innodb'] as const) {
    const r = cli('simulate', '--model', model, '--pool', '4000', '--trace', file, '--format', 'oracleGeneral', '--json');
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out);
    assert.equal(out.accesses, 200_000);
    // 2,000 distinct pages fit the pool: each is read once (InnoDB may read some ahead first).
    if (model === 'lru') assert.equal(out.misses, 2000);
    else assert.ok(out.misses <= 2000 && out.counters.Innodb_pages_read === 2000, r.out);
  }
});

test('simulate is its own small bundle: the drivers are not loaded to replay a trace', () => {
  const bundle = readFileSync('dist/cli-simulate.js', 'utf8');
  for (const driver of ['node_modules/pg/', 'node_modules/mysql2/']) assert.ok(!bundle.includes(driver), driver);
  const help = cli('--help');
  assert.match(help.out, /simulate/);
  assert.match(help.out, /workload/);
});

test('bench: the libCacheSim options need --cachesim, and a cachesim that cannot run is one line', () => {
  const alone = cli('bench', '--trace', 'x.oracleGeneral');
  assert.equal(alone.code, 2);
  assert.match(alone.err, /--trace goes with --cachesim PATH/);
  const missing = cli('bench', '--cachesim', join(dir, 'no-such-cachesim'), '--accesses', '1000', '--rounds', '1');
  assert.equal(missing.code, 2);
  assert.match(missing.err, /cannot run .*no-such-cachesim: ENOENT/);
});
