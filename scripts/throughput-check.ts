// Transactions per second per pool size, predicted from one short `workload run` and checked against runs
// at every size: sysbench's oltp_read_only on a private MariaDB, each size from a restarted (empty) pool.
// At the reference size `workload run` measures the mix and, with its paired probe, what a page read costs;
// the prediction covers every size. At each size then: `workload run` again (the same client: the model's own
// check) and sysbench itself. sysbench is another client, written in C, sharing this machine's cores: with it
// every part of a transaction, reads included, takes a smaller share of wall time (4.4 ms a transaction at
// 16 MB against 11 ms with workload run's client). Its prediction keeps the server's proportions: sysbench's
// rate at the reference size times the predicted ratio of each size's rate to the reference's. Printed as
// a table and a chart (docs/workload/throughput-mariadb-oltp-read-only.svg); nothing is asserted.
// Run: npm run accuracy:throughput [-- --rows 500000 --pools 16,32,64,128 --reference 16 --threads 4 --warmup 15 --duration 20]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createConnection } from 'mysql2/promise';
import { findInnodbServers, LocalInnodbServer } from '../src/local-server/mariadb';
import { parseConnectionUrl, type ConnectionTarget } from '../src/db/connection-url';
import { compileWorkload, predictCompiled, type PredictWorkloadOptions } from '../src/workload/predict-workload';
import { loadScripts } from '../src/workload/load-scripts';
import { runWorkload } from '../src/workload/run-workload';
import { addThroughput } from '../src/workload/workload-report';
import { oltpScript } from './sysbench-scripts';
import { throughputChart, type ChartRow } from './throughput-chart';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const MiB = 1048576;

async function main(): Promise<void> {
  const rows = Number(option('rows', '500000'));
  const pools = option('pools', '16,32,64,128').split(',').map(Number);
  const reference = Number(option('reference', String(pools[0])));
  const threads = Number(option('threads', '4'));
  const warmup = Number(option('warmup', '15'));
  const duration = Number(option('duration', '20'));
  const binaries = findInnodbServers()[0];
  if (!binaries) throw new Error('no MariaDB/MySQL server binaries');
  const server = await LocalInnodbServer.start({ binaries, settings: { 'innodb-buffer-pool-size': `${Math.max(...pools)}M` } });
  const sysbench = (command: string, extra: string[] = []) =>
    execFileSync(
      'sysbench',
      [
        'oltp_read_only',
        '--db-driver=mysql',
        '--mysql-host=127.0.0.1',
        `--mysql-port=${server.port}`,
        '--mysql-user=root',
        '--mysql-db=sbtest',
        '--tables=1',
        `--table-size=${rows}`,
        `--threads=${threads}`,
        ...extra,
        command,
      ],
      { stdio: 'pipe', maxBuffer: 1 << 26 },
    ).toString();
  try {
    const admin = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    await admin.query('CREATE DATABASE sbtest');
    await admin.end();
    sysbench('prepare');
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root', database: 'sbtest' });
    await c.query('ANALYZE TABLE sbtest1');
    await c.end();
    const file = join(mkdtempSync(join(tmpdir(), 'bufferlens-throughput-')), 'oltp_read_only.sql');
    writeFileSync(file, oltpScript('oltp_read_only', rows, 100, 'uniform'));
    const options: PredictWorkloadOptions = { scripts: loadScripts([file], []), fixed: new Map(), sizes: pools.map((mb) => mb * MiB), seed: 1 };
    const target: ConnectionTarget = parseConnectionUrl(server.url('sbtest'));
    const ours = async () => {
      const compiled = await compileWorkload(target, options);
      const measured = await runWorkload(compiled, target, { sessions: threads, warmupSeconds: warmup, seconds: duration, commit: false });
      const report = predictCompiled(compiled, { ...options, warmup: measured.warmupTransactions, transactions: Math.max(1, measured.transactions) });
      report.measured = measured;
      addThroughput(report);
      return { report, compiled };
    };

    await server.restart({ 'innodb-buffer-pool-size': `${reference}M` });
    const { report: predicted, compiled: referenceCompiled } = await ours();
    const m = predicted.measured!;
    console.log(
      `${binaries.product} ${binaries.version}, sbtest1 ${rows.toLocaleString('en-US')} rows, oltp_read_only uniform, ${threads} sessions, ${warmup} s warm-up + ${duration} s`,
    );
    console.log(
      `reference run at ${reference} MB: ${m.transactionsPerSecond.toFixed(0)} tx/s (the client used ${((m.clientCpuShare ?? 0) * 100).toFixed(0)} % of a core), latency ${m.latency!.meanMs.toFixed(2)} / ${m.latency!.p95Ms.toFixed(2)} ms, ` +
        (m.costs
          ? `a page read ${m.costs.perReadMs.toFixed(3)} ms (${m.costs.perReadMsRange.map((x) => x.toFixed(3)).join('–')}), without reads ${m.costs.noReadMs.toFixed(2)} ms`
          : `costs not reported: ${m.costsNotReported}`),
    );
    const at = (mb: number) => predicted.curve.find((p) => p.poolBytes === mb * MiB)?.throughput;
    const rows_: string[] = [];
    let sysbenchAtReference = 0;
    for (const mb of pools) {
      await server.restart({ 'innodb-buffer-pool-size': `${mb}M` });
      const run = (await ours()).report.measured!;
      await server.restart();
      sysbench('run', [`--time=${warmup}`]);
      const counted = sysbench('run', [`--time=${duration}`]);
      const sbTps = Number(/transactions:\s+\d+\s+\(([\d.]+) per sec/.exec(counted)?.[1]);
      const sbMean = Number(/avg:\s+([\d.]+)/.exec(counted)?.[1]);
      const sbP95 = Number(/95th percentile:\s+([\d.]+)/.exec(counted)?.[1]);
      if (mb === reference) sysbenchAtReference = sbTps;
      rows_.push(JSON.stringify({ mb, run, sbTps, sbMean, sbP95 }));
    }
    // InnoDB's pool depends on the rate of requests (innodb_old_blocks_time, the page cleaner's pace): for
    // sysbench the curve is replayed at sysbench's own rate at the reference size.
    const atSysbenchRate = predictCompiled(referenceCompiled, {
      ...options,
      warmup: m.warmupTransactions,
      transactions: m.transactions,
      tps: sysbenchAtReference,
    });
    atSysbenchRate.measured = m;
    addThroughput(atSysbenchRate);
    const sbAt = (mb: number) => atSysbenchRate.curve.find((p) => p.poolBytes === mb * MiB);
    for (const mb of pools) {
      const a = predicted.curve.find((p) => p.poolBytes === mb * MiB)!;
      console.log(
        `  ${mb} MB: predicted reads per transaction ${a.readsPerTransaction.toFixed(2)} at the reference run's rate, ${sbAt(mb)!.readsPerTransaction.toFixed(2)} at sysbench's`,
      );
    }
    const forSysbench = (mb: number) => {
      const p = sbAt(mb)?.throughput;
      const ref = sbAt(reference)?.throughput;
      if (!p || !ref) return undefined;
      const scale = (x: number) => (x / ref.transactionsPerSecond) * sysbenchAtReference;
      return { transactionsPerSecond: scale(p.transactionsPerSecond), transactionsPerSecondRange: p.transactionsPerSecondRange.map(scale) as [number, number] };
    };
    console.log(
      'pool MB  predicted tx/s (band)   workload run   error  |  predicted for sysbench   sysbench tx/s   error  | latency mean / p95 ms: predicted   workload run   predicted for sysbench (mean)   sysbench',
    );
    const charted: ChartRow[] = [];
    for (const line of rows_) {
      const { mb, run, sbTps, sbMean, sbP95 } = JSON.parse(line);
      const p = at(mb);
      const err = (a: number, b: number) => `${((Math.abs(a - b) / b) * 100).toFixed(0).padStart(4)} %`;
      const sb = forSysbench(mb);
      const tpsText = (t: { transactionsPerSecond: number; transactionsPerSecondRange: [number, number] } | undefined) =>
        t ? `${t.transactionsPerSecond.toFixed(0)} (${t.transactionsPerSecondRange.map((x) => x.toFixed(0)).join('–')})` : 'not reported';
      const latencyText = (t: typeof p) => (t ? `${t.latencyMeanMs.toFixed(2)} / ${t.latencyP95Ms.toFixed(2)}` : '');
      const sbLatency = sb ? `${((threads * 1000) / sb.transactionsPerSecond).toFixed(2)}` : '';
      if (p && sb) {
        const [bandLow, bandHigh] = p.transactionsPerSecondRange;
        charted.push({
          mb,
          predicted: [bandLow, p.transactionsPerSecond, bandHigh],
          measured: run.transactionsPerSecond,
          toolPredicted: sb.transactionsPerSecond,
          tool: sbTps,
        });
      }
      console.log(
        `${String(mb).padStart(7)}  ${tpsText(p).padStart(22)}   ${run.transactionsPerSecond.toFixed(0).padStart(12)}  ${p ? err(p.transactionsPerSecond, run.transactionsPerSecond) : '     '}  |  ${tpsText(sb).padStart(22)}   ${sbTps.toFixed(0).padStart(13)}  ${sb ? err(sb.transactionsPerSecond, sbTps) : '     '}  | ${latencyText(p).padStart(31)}   ${`${run.latency!.meanMs.toFixed(2)} / ${run.latency!.p95Ms.toFixed(2)}`.padStart(12)}   ${sbLatency.padStart(22)}   ${sbMean.toFixed(2)} / ${sbP95.toFixed(2)}`,
      );
    }
    if (charted.length === pools.length) {
      const out = 'docs/workload/throughput-mariadb-oltp-read-only.svg';
      writeFileSync(
        out,
        throughputChart(`${binaries.product} ${binaries.version}, sysbench oltp_read_only, ${rows.toLocaleString('en-US')} rows, ${threads} sessions`, charted),
      );
      console.log(`chart: ${out}`);
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
