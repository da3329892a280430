// The libCacheSim side-by-side benchmark's pure parts: reading cachesim's summary, writing its format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachesimMissRatio, replayBenchTable, writeOracleGeneral } from '../../src/cli/replay-bench';
import { parseTrace } from '../../src/sim/trace-format';

// What libCacheSim's cachesim printed here for the generated miss-heavy trace (colour codes included).
const CACHESIM_OUTPUT = [
  '\u001b[0m\u001b[32m[INFO]  12-04-2026 16:09:48    sim.c:59   (tid=139964033651968): miss-heavy.oracleGeneral LRU 2760.00 hour: 9936000 requests, miss ratio 0.8994, interval miss ratio 0.8947',
  '\u001b[0mmiss-heavy.oracleGeneral LRU cache size    65536,         10000000 req, miss ratio 0.8994, throughput 1.57 MQPS',
].join('\n');

test("cachesim's miss ratio is read from its summary line, not from an interval line", () => {
  assert.equal(cachesimMissRatio(CACHESIM_OUTPUT), 0.8994);
  assert.throws(() => cachesimMissRatio('Usage: cachesim [OPTION...]'), /printed no miss ratio: Usage/);
});

test('the generated traces are written as oracleGeneral records with 64-bit ids, one id per page', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bufferlens-og-'));
  try {
    const file = join(dir, 't.oracleGeneral');
    writeOracleGeneral(file, new Int32Array([3, 1, 3, 2]));
    const bytes = readFileSync(file);
    assert.equal(bytes.length, 96);
    assert.ok(bytes.readBigUInt64LE(4 + 24) > 2n ** 32n, 'ids are spread over 64 bits');
    assert.deepEqual([...parseTrace(bytes, 'oracleGeneral', { spreadRenumbered: false })], [0, 1, 0, 2]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the table names each program and says how many times faster than cachesim', () => {
  const table = replayBenchTable(
    [
      {
        trace: 'hit-heavy',
        program: 'libCacheSim cachesim',
        model: 'lru',
        accesses: 1e7,
        seconds: 2.3,
        accessesPerSecond: 4.3e6,
        missRatio: 0.0033,
        timesFasterThanCachesim: 1,
      },
      {
        trace: 'hit-heavy',
        program: 'bufferlens simulate',
        model: 'lru',
        accesses: 1e7,
        seconds: 0.58,
        accessesPerSecond: 1.7e7,
        missRatio: 0.0033,
        timesFasterThanCachesim: 3.97,
      },
    ],
    3,
  );
  assert.match(table, /hit-heavy\s+bufferlens simulate\s+lru\s+0\.58 s\s+17\.0\s+4\.0/);
  assert.match(table, /median of 3 rounds/);
});
