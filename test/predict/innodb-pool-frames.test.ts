// The simulated pool has the pages the server's pool really has (Innodb_buffer_pool_pages_total), a few
// fewer than its size in pages: 2,028 of 2,048 for 32 MiB on MariaDB 10.11. Where a table nearly fills
// the pool, those 20 pages decide whether a second full scan finds it cached.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InnodbPredictor } from '../../src/predict/innodb/predictor';
import type { InnodbIndexFacts, InnodbPredictionSettings, InnodbRunInput } from '../../src/predict/innodb/facts';

const facts: InnodbIndexFacts[] = [
  {
    reportName: 'lab.t',
    table: 't',
    index: 'PRIMARY',
    clustered: true,
    leafPages: 2036,
    sizePages: 2040,
    spacePages: 2044,
    cachedBefore: [],
    rows: 150_000,
    unique: true,
    keyBytes: 4,
    entryBytes: 206,
    autoIncrementKey: true,
    keyColumns: ['id'],
  },
];
const settings: InnodbPredictionSettings = {
  product: 'mysql',
  poolPages: 2048,
  pageSize: 16384,
  oldBlocksPct: 37,
  oldBlocksTime: 1000,
  readAheadThreshold: 56,
  randomReadAhead: false,
  otherPagesUsed: 0,
  changeBuffering: 'none',
  changeBufferMaxPct: 25,
};
const scan: InnodbRunInput = { accesses: [{ table: 't', accessType: 'ALL', rows: 150_000, loops: 1, usingIndex: false, executed: true }] };

const secondScanReads = (s: InnodbPredictionSettings): number => {
  const p = new InnodbPredictor(facts, s);
  p.predictRun(scan);
  const r = p.predictRun(scan).predicted;
  return r.physicalReads! + (r.readAhead ?? 0);
};

test('a table that fits the pool by its size but not by its frames is read again on the second scan', () => {
  assert.equal(secondScanReads(settings), 0, 'in 2,048 pages the table fits');
  assert.ok(secondScanReads({ ...settings, poolFrames: 2028 }) > 500, 'in 2,028 it does not: the scan evicts its own pages');
});
