import { spawnSync } from 'node:child_process';
import { LocalPostgres, findSystemPostgres, findEmbeddedPostgres } from '../src/local-server/postgres';
import { parseConnectionUrl } from '../src/db/connection-url';
import { measure } from '../src/measure/measure';
import { pgQuery } from './support/sql';
const ALL = [
  ['point select', 'SELECT abalance FROM pgbench_accounts WHERE aid = 1234567'],
  ['pk range 20k', 'SELECT sum(abalance) FROM pgbench_accounts WHERE aid BETWEEN 300000 AND 320000'],
  ['filter by bid (parallel seq)', 'SELECT count(*) FROM pgbench_accounts WHERE bid = 3'],
  ['top-N', 'SELECT aid, abalance FROM pgbench_accounts ORDER BY abalance DESC LIMIT 10'],
  ['join tellers/branches', 'SELECT b.bid, sum(a.abalance) FROM pgbench_accounts a JOIN pgbench_branches b ON a.bid = b.bid WHERE a.aid < 40000 GROUP BY b.bid'],
  ['count aid < 600k', 'SELECT count(*) FROM pgbench_accounts WHERE aid < 600000'],
  ['single-row update', 'UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = 777777'],
  ['range update 2k', 'UPDATE pgbench_accounts SET abalance = abalance - 1 WHERE aid BETWEEN 50000 AND 52000'],
  ['insert history', "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, 1, 5, now())"],
];
const STATEMENTS = process.env.ONLY ? ALL.filter(([n]) => n.startsWith(process.env.ONLY!)) : ALL;
const STATES = process.env.STATES ? process.env.STATES.split(',') : ['cold', 'warm'];
(async () => {
  const major = process.argv[2];
  const bin = major === '18' ? findEmbeddedPostgres()! : findSystemPostgres()[0];
  const pool = process.argv[3] ?? '32MB';
  const server = await LocalPostgres.start({ binaries: bin, settings: { shared_buffers: pool, autovacuum: 'off' } });
  const url = server.url();
  try {
    await pgQuery(url, 'CREATE EXTENSION pg_buffercache');
    const u = new URL(url);
    const env = { ...process.env, PGHOST: u.hostname, PGPORT: u.port, PGUSER: 'postgres', PGDATABASE: 'postgres' };
    const pgb = (args: string[]) => { const r = spawnSync('pgbench', args, { env, encoding: 'utf8' }); if (r.status !== 0) throw new Error(r.stderr); };
    pgb(['-i', '-s', '20', '-q']);
    await pgQuery(url, 'CHECKPOINT');
    const target = parseConnectionUrl(url);
    let counted = 0, logicalOk = 0, readOk = 0, readCounted = 0;
    for (const state of STATES) {
      for (const [name, sql] of STATEMENTS) {
        await server.restart();
        if (state === 'warm') pgb(['-b', 'tpcb-like', '-t', '2000', '-c', '2', '-n']);
        const report = await measure(target, { sql, runs: 3, cold: 'no', commit: false, timing: false, timeoutMs: 120_000, whatIf: false });
        if (process.env.DETAIL) {
          const walk = (n: any, d = 0): void => { console.log(' '.repeat(d * 2) + n.nodeType + ' ' + (n.relation ?? '') + ' ' + (n.index ?? '') + ' rows=' + n.actualRows + ' loops=' + n.actualLoops + ' hf=' + n.heapFetches + ' hit=' + n.self.sharedHit + ' read=' + n.self.sharedRead); n.children.forEach((c: any) => walk(c, d + 1)); };
          for (const r of report.runs) { walk(r.plan); console.log(r.prediction?.assumptions.join('\n  ')); }
        }
        for (const r of report.runs) {
          const ml = r.measured.logicalReads!, pl = r.predicted.logicalReads!, mr = r.measured.physicalReads!, pr = r.predicted.physicalReads!;
          const band = r.predictedRange ? `[${r.predictedRange.low.physicalReads}-${r.predictedRange.high.physicalReads}]` : '';
          const okL = Math.abs(pl - ml) <= 0.05 * ml, okR = Math.abs(pr - mr) <= 0.05 * mr;
          if (ml >= 20) { counted++; if (okL) logicalOk++; }
          if (mr >= 20) { readCounted++; if (okR) readOk++; }
          console.log(`${pool} ${state} | ${name} | run ${r.run} | logical ${ml} / ${pl}${ml >= 20 && !okL ? ' MISS' : ''} | read ${mr} / ${pr} ${band}${mr >= 20 && !okR ? ' MISS' : ''}`);
        }
      }
    }
    console.log(`logical within 5 %: ${logicalOk}/${counted}; pages read within 5 %: ${readOk}/${readCounted}`);
  } finally { await server.stop(); }
})().catch((e) => { console.error(e); process.exit(1); });
