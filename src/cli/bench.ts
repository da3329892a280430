// `bufferlens bench`: the simulator's speed against a baseline measured in the same run.
import { makeModel, MODEL_NAMES } from '../sim/models';
import { runBenchmark } from '../sim/benchmark';
import { runWorkloadBench } from '../workload/workload-bench';
import { join } from 'node:path';
import { replayBenchTable, runReplayBench } from './replay-bench';

/** Bytes of typed arrays one model of a 1,048,576-page pool holds. */
function poolMemory(): Record<string, number> {
  const out: Record<string, number> = {};
  const alive = []; // kept until all are measured, so no collection frees one while another is counted
  for (const name of MODEL_NAMES) {
    const before = process.memoryUsage().arrayBuffers;
    alive.push(makeModel(name, 1 << 20));
    out[name] = process.memoryUsage().arrayBuffers - before;
  }
  alive.forEach((m) => m.access(0));
  return out;
}

export function runBench(json: boolean, accesses: number, workloadAccesses = 10_000_000): number {
  const memory = poolMemory(); // first, before the traces make garbage
  const { results, mrcSeconds } = runBenchmark(accesses);
  const workload = workloadAccesses > 0 ? runWorkloadBench(workloadAccesses) : [];
  if (json) {
    process.stdout.write(
      JSON.stringify({ results, lruCurveSeconds: mrcSeconds, lruCurveAccesses: accesses, bytesPerMillionPagePool: memory, workloadCurves: workload }, null, 2) +
        '\n',
    );
    return 0;
  }
  const lines = ['trace       model                 pool      M acc/s  × baseline  miss ratio'];
  for (const r of results) {
    const speed = `${(r.accessesPerSecond / 1e6).toFixed(1).padStart(11)} ${(r.ratioToBaseline ?? 1).toFixed(1).padStart(11)}`;
    lines.push(`${r.trace.padEnd(11)} ${r.model.padEnd(20)} ${String(r.pool).padStart(6)} ${speed}  ${r.missRatio.toFixed(3)}`);
  }
  lines.push(`all-sizes LRU miss-ratio curve of the ${accesses.toLocaleString('en-US')}-access miss-heavy trace: ${mrcSeconds.toFixed(2)} s`);
  lines.push('(the Map-based LRU baseline runs on the first 1,000,000 accesses of each trace)');
  for (const r of workload) {
    const error = r.sampledError !== undefined ? `, largest miss-ratio error against full simulation ${r.sampledError.toFixed(4)}` : '';
    const sampled = r.sampleRate < 1 ? ` (miniature simulation of ${(r.sampleRate * 100).toFixed(0)} %${error})` : '';
    const timing = `trace ${r.traceSeconds.toFixed(1)} s, ${r.sizes} pool sizes ${r.curveSeconds.toFixed(1)} s`;
    lines.push(`workload curve, ${r.model}: ${r.accesses.toLocaleString('en-US')} requests, ${timing}${sampled}`);
  }
  lines.push(
    `memory of a 1,048,576-page pool: ${Object.entries(memory)
      .map(([k, v]) => `${k} ${(v / 1048576).toFixed(0)} MiB`)
      .join(', ')}`,
  );
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

/** `bench --cachesim PATH`: whole-process replays against libCacheSim (replay-bench.ts). */
export function runCachesimBench(o: { json: boolean; cachesim: string; trace?: string; accesses: number; rounds: number; pool: number }): number {
  const rows = runReplayBench({
    cachesim: o.cachesim,
    node: process.execPath,
    // This bundle sits next to the program's entry in dist/.
    cli: join(__dirname, 'cli.js'),
    accesses: o.accesses,
    pool: o.pool,
    rounds: o.rounds,
    traces: o.trace ? { [o.trace.split('/').pop() ?? o.trace]: o.trace } : undefined,
  });
  if (o.json) process.stdout.write(JSON.stringify({ results: rows.map((r) => ({ ...r, model: `${r.program} ${r.model}` })) }, null, 2) + '\n');
  else process.stdout.write(replayBenchTable(rows, o.rounds) + '\n');
  return 0;
}
