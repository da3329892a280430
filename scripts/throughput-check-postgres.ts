// Transactions per second per shared_buffers size on PostgreSQL, predicted from one short `workload run` and
// checked against runs at every size: pgbench's select-only on a private server (scale 5, about 75 MB), each
// size from a restarted server. As scripts/throughput-check.ts does for MariaDB and sysbench: the reference
// size's `workload run` measures the mix and, with its paired probe, what a page read costs; at each size
// `workload run` again and pgbench itself (4 clients), pgbench's prediction keeping the server's proportions
// (pgbench's rate at the reference size times the predicted ratio of each size's rate to the reference's).
// Printed as a table and a chart (docs/workload/throughput-postgresql-select-only.svg); nothing is asserted.
// Run: npm run accuracy:throughput:pg [-- --scale 5 --pools 16,32,64,128 --reference 16 --clients 4 --warmup 15 --duration 20]
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { LocalPostgres, findSystemPostgres } from '../src/local-server/postgres';
import { parseConnectionUrl } from '../src/db/connection-url';
import { compileWorkload, predictCompiled, type PredictWorkloadOptions } from '../src/workload/predict-workload';
import { loadScripts } from '../src/workload/load-scripts';
import { runWorkload } from '../src/workload/run-workload';
import { addThroughput } from '../src/workload/workload-report';
import { throughputChart, type ChartRow } from './throughput-chart';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const MiB = 1048576;

async function main(): Promise<void> {
  const scale = option('scale', '5');
  const pools = option('pools', '16,32,64,128').split(',').map(Number);
  const reference = Number(option('reference', String(pools[0])));
  const clients = Number(option('clients', '4'));
  const warmup = Number(option('warmup', '15'));
  const duration = Number(option('duration', '20'));
  const binaries = findSystemPostgres()[0];
  if (!binaries) throw new Error('no PostgreSQL server binaries');
  const server = await LocalPostgres.start({ binaries, settings: { shared_buffers: `${reference}MB` } });
  const url = server.url();
  const u = new URL(url);
  const env = { ...process.env, PGHOST: u.hostname, PGPORT: u.port, PGUSER: 'postgres', PGDATABASE: 'postgres' };
  const pgbench = (args: string[]) => {
    const r = spawnSync('pgbench', args, { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`pgbench ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  try {
    pgbench(['-i', '-s', scale, '-q']);
    const target = parseConnectionUrl(url);
    const options: PredictWorkloadOptions = { scripts: loadScripts([], ['select-only']), fixed: new Map(), sizes: pools.map((mb) => mb * MiB), seed: 1 };
    const ours = async () => {
      const compiled = await compileWorkload(target, options);
      const measured = await runWorkload(compiled, target, { sessions: clients, warmupSeconds: warmup, seconds: duration, commit: false });
      const report = predictCompiled(compiled, { ...options, warmup: measured.warmupTransactions, transactions: Math.max(1, measured.transactions) });
      report.measured = measured;
      addThroughput(report);
      return report;
    };
    await server.restart({ shared_buffers: `${reference}MB` });
    const predicted = await ours();
    const m = predicted.measured!;
    console.log(`PostgreSQL ${binaries.version}, pgbench scale ${scale}, select-only, ${clients} sessions, ${warmup} s warm-up + ${duration} s`);
    console.log(
      `reference run at ${reference} MB: ${m.transactionsPerSecond.toFixed(0)} tx/s (the client used ${((m.clientCpuShare ?? 0) * 100).toFixed(0)} % of a core), latency ${m.latency!.meanMs.toFixed(3)} / ${m.latency!.p95Ms.toFixed(3)} ms, ` +
        (m.costs
          ? `a page read ${m.costs.perReadMs.toFixed(4)} ms (${m.costs.perReadMsRange.map((x) => x.toFixed(4)).join('–')}), without reads ${m.costs.noReadMs.toFixed(3)} ms: ${m.costs.from}`
          : `costs not reported: ${m.costsNotReported}`),
    );
    for (const p of predicted.curve) console.log(`  ${p.poolBytes / MiB} MB: predicted reads per transaction ${p.readsPerTransaction.toFixed(3)}`);
    const at = (mb: number) => predicted.curve.find((p) => p.poolBytes === mb * MiB)?.throughput;
    const measured: Array<{ mb: number; run: number; runMs: number; tool: number; toolMs: number }> = [];
    for (const mb of pools) {
      await server.restart({ shared_buffers: `${mb}MB` });
      const run = (await ours()).measured!;
      await server.restart();
      pgbench(['-S', '-n', '-c', String(clients), '-j', '2', '-T', String(warmup)]);
      const out = pgbench(['-S', '-n', '-c', String(clients), '-j', '2', '-T', String(duration)]);
      const tool = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
      const toolMs = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1]);
      measured.push({ mb, run: run.transactionsPerSecond, runMs: run.latency!.meanMs, tool, toolMs });
    }
    const toolAtReference = measured.find((x) => x.mb === reference)!.tool;
    const err = (a: number, b: number) => `${((Math.abs(a - b) / b) * 100).toFixed(0).padStart(4)} %`;
    console.log(
      'pool MB  predicted tx/s (band)   workload run   error  |  predicted for pgbench   pgbench tx/s   error  | latency mean ms: predicted   workload run   pgbench',
    );
    const charted: ChartRow[] = [];
    for (const x of measured) {
      const p = at(x.mb);
      const ref = at(reference);
      if (!p || !ref) {
        console.log(`${String(x.mb).padStart(7)}  not reported: ${m.costsNotReported}`);
        continue;
      }
      const forTool = (p.transactionsPerSecond / ref.transactionsPerSecond) * toolAtReference;
      charted.push({
        mb: x.mb,
        predicted: [p.transactionsPerSecondRange[0], p.transactionsPerSecond, p.transactionsPerSecondRange[1]],
        measured: x.run,
        toolPredicted: forTool,
        tool: x.tool,
      });
      console.log(
        `${String(x.mb).padStart(7)}  ${`${p.transactionsPerSecond.toFixed(0)} (${p.transactionsPerSecondRange.map((v) => v.toFixed(0)).join('–')})`.padStart(22)}   ${x.run.toFixed(0).padStart(12)}  ${err(p.transactionsPerSecond, x.run)}  |  ${forTool.toFixed(0).padStart(21)}   ${x.tool.toFixed(0).padStart(12)}  ${err(forTool, x.tool)}  | ${p.latencyMeanMs.toFixed(3).padStart(25)}   ${x.runMs.toFixed(3).padStart(12)}   ${x.toolMs.toFixed(3)}`,
      );
    }
    if (charted.length === pools.length) {
      const out = 'docs/workload/throughput-postgresql-select-only.svg';
      writeFileSync(out, throughputChart(`PostgreSQL ${binaries.version}, pgbench select-only, scale ${scale}, ${clients} sessions`, charted, 'pgbench'));
      console.log(`chart: ${out}`);
    }
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
