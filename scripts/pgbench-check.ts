// A check outside the corpus, on pgbench's schema (scale 20, about 2,000,000 accounts) in a private
// PostgreSQL server: statements of the kinds a user measures, cold (after a restart), warm (after 4,000
// tpcb-like transactions, committed, autovacuum off) and updated (after a committed update of every account,
// not vacuumed; after a restart), each measured three times as BufferLens measures.
// Prints every run, measured / predicted, and the share within 5 % of the runs of 20 pages or more. The
// states accumulate as on a user's server: each warm statement follows one more round of transactions, and
// the writes measured earlier leave their rolled-back versions.
// Run: node --import tsx scripts/pgbench-check.ts [15|18] [shared_buffers, default 32MB]. With PGBENCH_INPUTS=<dir>,
// each measurement's prediction input is written there too, to replay a change of the model without measuring,
// and beside it the runs as measured (<name>.runs.json: numbers and the blocks cached after each run), to tell
// which pages the model reads that the server did not and the other way round.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalPostgres, findSystemPostgres, findEmbeddedPostgres } from '../src/local-server/postgres';
import { parseConnectionUrl } from '../src/db/connection-url';
import { measure } from '../src/measure/measure';
import { pgQuery } from '../test/support/sql';

const STATEMENTS: Array<[string, string]> = [
  ['point select', 'SELECT abalance FROM pgbench_accounts WHERE aid = 1234567'],
  ['primary-key range, 20,001 rows', 'SELECT sum(abalance) FROM pgbench_accounts WHERE aid BETWEEN 300000 AND 320000'],
  ['filter on bid (parallel seq scan)', 'SELECT count(*) FROM pgbench_accounts WHERE bid = 3'],
  ['top-N over all accounts', 'SELECT aid, abalance FROM pgbench_accounts ORDER BY abalance DESC LIMIT 10'],
  ['join with branches', 'SELECT b.bid, sum(a.abalance) FROM pgbench_accounts a JOIN pgbench_branches b ON a.bid = b.bid WHERE a.aid < 40000 GROUP BY b.bid'],
  ['count of 600,000 keys', 'SELECT count(*) FROM pgbench_accounts WHERE aid < 600000'],
  ['single-row update', 'UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = 777777'],
  ['range update, 2,001 rows', 'UPDATE pgbench_accounts SET abalance = abalance - 1 WHERE aid BETWEEN 50000 AND 52000'],
  ['insert into history', 'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, 1, 5, now())'],
];

const within = (m: number, p: number) => Math.abs(p - m) <= 0.05 * m;

/** Where PGBENCH_INPUTS names a folder, what writes a measurement's prediction input there, as a fixture to replay. */
function recorder(name: string, statement: string): ((input: object) => void) | undefined {
  const dir = process.env.PGBENCH_INPUTS;
  if (!dir) return undefined;
  return (input) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name.replace(/[^a-z0-9]+/gi, '-')}.json`), JSON.stringify({ engine: 'postgresql', ...input, statement }));
  };
}

async function main(): Promise<void> {
  const binaries = process.argv[2] === '18' ? findEmbeddedPostgres() : findSystemPostgres()[0];
  if (!binaries) throw new Error('no PostgreSQL server binaries for this version');
  const pool = process.argv[3] ?? '32MB';
  const server = await LocalPostgres.start({ binaries, settings: { shared_buffers: pool, autovacuum: 'off' } });
  const url = server.url();
  try {
    await pgQuery(url, 'CREATE EXTENSION pg_buffercache');
    const u = new URL(url);
    const env = { ...process.env, PGHOST: u.hostname, PGPORT: u.port, PGUSER: 'postgres', PGDATABASE: 'postgres' };
    const pgbench = (args: string[]) => {
      const r = spawnSync('pgbench', args, { env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`pgbench ${args.join(' ')}: ${r.stderr}`);
    };
    pgbench(['-i', '-s', '20', '-q']);
    await pgQuery(url, 'CHECKPOINT');
    const target = parseConnectionUrl(url);
    const counted = { logical: 0, logicalWithin: 0, read: 0, readWithin: 0 };
    for (const state of ['cold', 'warm', 'updated']) {
      if (state === 'updated') {
        await pgQuery(url, 'UPDATE pgbench_accounts SET abalance = abalance + 1');
        await pgQuery(url, 'CHECKPOINT');
      }
      for (const [name, sql] of STATEMENTS) {
        await server.restart();
        if (state === 'warm') pgbench(['-b', 'tpcb-like', '-t', '2000', '-c', '2', '-n']);
        const record = recorder(`${pool}-${state}-${name}`, sql);
        const report = await measure(target, {
          sql,
          runs: 3,
          cold: 'no',
          commit: false,
          timing: false,
          timeoutMs: 120_000,
          whatIf: false,
          ...(record ? { onPredictionInput: record } : {}),
        });
        if (process.env.PGBENCH_INPUTS) {
          const runs = report.runs.map((r) => ({ run: r.run, measured: r.measured, predicted: r.predicted, residency: r.residency }));
          writeFileSync(join(process.env.PGBENCH_INPUTS, `${`${pool}-${state}-${name}`.replace(/[^a-z0-9]+/gi, '-')}.runs.json`), JSON.stringify(runs));
        }
        for (const r of report.runs) {
          const [ml, pl, mr, pr] = [r.measured.logicalReads, r.predicted.logicalReads, r.measured.physicalReads, r.predicted.physicalReads];
          if (ml === null || pl === null || mr === null || pr === null) continue;
          const band = r.predictedRange ? ` (${r.predictedRange.low.physicalReads}–${r.predictedRange.high.physicalReads})` : '';
          const bandL = r.predictedRange ? ` (${r.predictedRange.low.logicalReads}–${r.predictedRange.high.logicalReads})` : '';
          const missL = ml >= 20 && !within(ml, pl);
          const missR = mr >= 20 && !within(mr, pr);
          if (ml >= 20) [counted.logical, counted.logicalWithin] = [counted.logical + 1, counted.logicalWithin + (missL ? 0 : 1)];
          if (mr >= 20) [counted.read, counted.readWithin] = [counted.read + 1, counted.readWithin + (missR ? 0 : 1)];
          console.log(
            `${pool} ${state} | ${name} | run ${r.run} | logical ${ml} / ${pl}${bandL}${missL ? ' MISS' : ''} | read ${mr} / ${pr}${band}${missR ? ' MISS' : ''}`,
          );
        }
      }
    }
    console.log(`logical within 5 %: ${counted.logicalWithin}/${counted.logical}; pages read within 5 %: ${counted.readWithin}/${counted.read}`);
  } finally {
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
