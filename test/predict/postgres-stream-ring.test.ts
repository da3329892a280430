// A parallel seq scan on PostgreSQL 18 where each read stream may pin as many buffers as its BULKREAD ring
// holds (128 MB: 94 of each), after three rounds of pgbench's transactions, each after a restart: run 1
// prunes the pages those updates left dead versions on, and more of them stay cached than the ring's
// rejections of dirty buffers alone keep. The model lets the last block of a read the stream split at a
// cached block escape its ring (postgres-scan.ts StreamPins). Before, run 2 was predicted to read 23,326
// pages where it read 20,016; a clean table's scan (cold, or cached in scattered pages) keeps only its
// rings' blocks either way.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { LocalPostgres } from '../../src/local-server/postgres';
import { embeddedPostgres, need, skipUnless } from '../support/engines';
import { measure } from '../../src/measure/measure';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { pagesRead } from '../accuracy/innodb-corpus';
import { pgQuery } from '../support/sql';

const availability = embeddedPostgres();
describe('a parallel seq scan through read streams as deep as their rings: embedded PostgreSQL 18', skipUnless(availability), () => {
  test('runs 2 and 3 after pgbench rounds: predicted within 5 %', async () => {
    const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '128MB', autovacuum: false } });
    try {
      await pgQuery(server.url(), 'CREATE EXTENSION pg_buffercache');
      const u = new URL(server.url());
      const env = { ...process.env, PGHOST: u.hostname, PGPORT: u.port, PGUSER: 'postgres', PGDATABASE: 'postgres' };
      const pgbench = (args: string[]) => {
        const r = spawnSync('pgbench', args, { env, encoding: 'utf8' });
        assert.equal(r.status, 0, `pgbench ${args.join(' ')}: ${r.stderr}`);
      };
      pgbench(['-i', '-s', '20', '-q']);
      await pgQuery(server.url(), 'CHECKPOINT');
      for (let round = 0; round < 3; round++) {
        await server.restart();
        pgbench(['-b', 'tpcb-like', '-t', '2000', '-c', '2', '-n']);
      }
      const report = await measure(parseConnectionUrl(server.url()), {
        sql: 'SELECT count(*) FROM pgbench_accounts WHERE bid = 3',
        runs: 3,
        cold: 'no',
        commit: false,
        timing: false,
        timeoutMs: 120_000,
        whatIf: false,
      });
      const read = report.runs.map((r) => pagesRead(r.measured)!);
      const predicted = report.runs.map((r) => pagesRead(r.predicted)!);
      // The premise: run 1 left far more cached than its three rings (3 × 94 blocks).
      assert.ok(read[1] < read[0] - 3000, `the premise: run 1 read ${read[0]} pages, run 2 ${read[1]}`);
      for (const k of [1, 2]) assert.ok(Math.abs(predicted[k] - read[k]) <= 0.05 * read[k], `run ${k + 1}: ${read[k]} pages read, ${predicted[k]} predicted`);
      assert.match(report.runs[0].prediction!.assumptions.join('\n'), /read stream may pin 94 buffers ahead/);
    } finally {
      await server.stop();
    }
  });
});
