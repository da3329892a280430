// The InnoDB workload curve checked against sysbench itself: sysbench's own schema (sbtest1) and its own
// oltp_read_only transactions, run by sysbench on a private MariaDB at several pool sizes, each from a
// restarted (empty) pool, the server's counters read around the counted part after a warm-up; next to them
// the prediction of `workload predict` for the same transaction written in pgbench syntax (the statements
// the test sends, keys drawn as --rand-type draws them: uniform, special or pareto). Printed as a table;
// nothing is asserted.
// Run: npm run accuracy:sysbench [-- --test oltp_read_only|oltp_read_write|oltp_write_only --rows 500000
//   --pools 16,32,64,96,128 --events 10000 --threads 2 --rand-type uniform|special|pareto]
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createConnection } from 'mysql2/promise';
import { findInnodbServers, LocalInnodbServer } from '../src/local-server/mariadb';
import { parseConnectionUrl } from '../src/db/connection-url';
import { compileWorkload, predictCompiled } from '../src/workload/predict-workload';
import { loadScripts } from '../src/workload/load-scripts';
import { readCounters } from '../src/workload/counter-sampler';
import { oltpScript, type OltpTest } from './sysbench-scripts';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

/**
 * The means of Innodb_buffer_pool_pages_free (what the page cleaner keeps out of the LRU list) and of
 * Innodb_history_list_length (the transactions purge has yet to reach), sampled every 100 ms until `until`
 * settles.
 */
async function sampleServer(port: number, until: Promise<unknown>): Promise<{ free: number; history: number }> {
  const c = await createConnection({ host: '127.0.0.1', port, user: 'root' });
  let done = false;
  void until.finally(() => (done = true)).catch(() => undefined);
  const free: number[] = [];
  const history: number[] = [];
  try {
    while (!done) {
      const [rows] = await c.query(`SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_buffer_pool_pages_free', 'Innodb_history_list_length')`);
      const m = new Map((rows as Array<{ Variable_name: string; Value: string }>).map((r) => [r.Variable_name, Number(r.Value)]));
      free.push(m.get('Innodb_buffer_pool_pages_free') ?? 0);
      history.push(m.get('Innodb_history_list_length') ?? 0);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await c.end();
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return { free: mean(free), history: mean(history) };
}

async function main(): Promise<void> {
  const rows = Number(option('rows', '500000'));
  const pools = option('pools', '16,32,64,96,128').split(',').map(Number);
  const events = Number(option('events', '10000'));
  const threads = option('threads', '2');
  const randType = option('rand-type', 'uniform');
  const test = option('test', 'oltp_read_only') as OltpTest;
  if (!['oltp_read_only', 'oltp_read_write', 'oltp_write_only'].includes(test))
    throw new Error(`--test ${test}: oltp_read_only, oltp_read_write or oltp_write_only`);
  const binaries = findInnodbServers()[0];
  if (!binaries) throw new Error('no MariaDB/MySQL server binaries');
  const server = await LocalInnodbServer.start({ binaries, settings: { 'innodb-buffer-pool-size': `${Math.max(...pools)}M` } });
  const args = (command: string, extra: string[]) => [
    test,
    '--db-driver=mysql',
    '--mysql-host=127.0.0.1',
    `--mysql-port=${server.port}`,
    '--mysql-user=root',
    '--mysql-db=sbtest',
    '--tables=1',
    `--table-size=${rows}`,
    `--rand-type=${randType}`,
    `--threads=${threads}`,
    ...extra,
    command,
  ];
  const sysbench = (command: string, extra: string[] = []) => execFileSync('sysbench', args(command, extra), { stdio: 'pipe', maxBuffer: 1 << 26 }).toString();
  const sysbenchAsync = async (command: string, extra: string[]) =>
    (await promisify(execFile)('sysbench', args(command, extra), { maxBuffer: 1 << 26 })).stdout;
  try {
    const admin = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    await admin.query('CREATE DATABASE sbtest');
    await admin.end();
    sysbench('prepare');
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root', database: 'sbtest' });
    await c.query('ANALYZE TABLE sbtest1');
    await c.end();
    const file = join(mkdtempSync(join(tmpdir(), 'bufferlens-sysbench-')), `${test}.sql`);
    writeFileSync(file, oltpScript(test, rows, 100, randType));
    console.log(
      `${binaries.product} ${binaries.version}, sbtest1 ${rows.toLocaleString('en-US')} rows, ${test} ${randType}, ${threads} threads, ${events} transactions after as many warm-up`,
    );
    console.log('pool MB   pages read per request: measured   predicted   error   |  requests/tx measured  predicted');
    for (const mb of pools) {
      await server.restart({ 'innodb-buffer-pool-size': `${mb}M` });
      const target = parseConnectionUrl(server.url('sbtest'));
      const options = { scripts: loadScripts([file], []), fixed: new Map() };
      const compiled = await compileWorkload(target, options);
      await server.restart();
      sysbench('run', [`--events=${events}`, '--time=0']);
      const a = await readCounters(target);
      // The pool's free pages while the counted part runs: what the page cleaner keeps out of the LRU list.
      const running = sysbenchAsync('run', [`--events=${events}`, '--time=0']);
      const { free, history } = await sampleServer(server.port, running);
      const counted = await running;
      const b = await readCounters(target);
      // The page cleaner's pace is per second: the prediction takes the run's own rate.
      const tps = Number(/transactions:\s+\d+\s+\(([\d.]+) per sec/.exec(counted)?.[1]);
      const requests = b.requests - a.requests;
      const reads = b.reads - a.reads;
      // Purge runs as far behind the writes as the history list is long: the run's own mean.
      const purgeLag = option('purge-lag', '') === '' ? history : Number(option('purge-lag', '0'));
      const report = predictCompiled({ ...compiled, purgeLag }, { ...options, warmup: events, transactions: events, ...(tps > 0 ? { tps } : {}) });
      const p = report.curve.find((x) => x.current)!;
      const measured = reads / requests;
      const predicted = 1 - p.hitRatio;
      const error = measured > 0 ? Math.abs(predicted - measured) / measured : predicted;
      console.log(
        `${String(mb).padStart(7)}   ${measured.toFixed(4).padStart(32)}   ${predicted.toFixed(4).padStart(9)}   ${(error * 100).toFixed(0).padStart(4)} %  |  ${(requests / events).toFixed(1).padStart(20)}  ${p.requestsPerTransaction.toFixed(1).padStart(9)}   ${tps.toFixed(0)} tx/s, ${free.toFixed(0)} pages free, history list ${history.toFixed(0)} on average`,
      );
      for (const s of report.statements) if (s.notModelled) console.log(`  not modelled: line ${s.line}: ${s.notModelled}`);
    }
  } catch (err) {
    console.error(`the server's log ends:\n${server.logTail(30)}`);
    throw err;
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
