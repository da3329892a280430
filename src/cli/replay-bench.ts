// `bufferlens bench --cachesim PATH`: whole-process trace replay, this program against libCacheSim's
// `cachesim` on the same oracleGeneral files in the same run. Each program is started fresh for every
// timing (start-up, reading the file and the replay all count, as a user sees them), the programs take
// turns so that a machine getting busier slows both alike, and the median of the rounds is kept.
// The LRU miss ratios of both must agree: a faster replay that counts differently is no result.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from './args';
import { hitHeavy, missHeavy } from '../sim/traces';

export interface ReplayBenchRow {
  trace: string;
  program: string;
  model: string;
  accesses: number;
  /** Median wall-clock seconds of the whole process. */
  seconds: number;
  accessesPerSecond: number;
  missRatio: number;
  /** The anchor's (cachesim LRU) seconds / this row's: how many times faster than libCacheSim. */
  timesFasterThanCachesim: number;
}

export const REPLAY_MODELS = ['lru', 'postgresql', 'innodb'] as const;

const now = (): number => performance.now();

/** libCacheSim's summary line: "… LRU cache size 65536, 10000000 req, miss ratio 0.8994, throughput …". */
export function cachesimMissRatio(output: string): number {
  const m = /cache size\s+\d+,\s+\d+ req, miss ratio ([0-9.]+)/.exec(output);
  if (!m) throw new Error(`cachesim printed no miss ratio: ${output.trim().split('\n').pop() ?? ''}`);
  return Number(m[1]);
}

/** A generated trace as oracleGeneral records with 64-bit object ids (page ids spread over 64 bits). */
export function writeOracleGeneral(file: string, pages: Int32Array): void {
  const out = Buffer.alloc(pages.length * 24);
  for (let i = 0; i < pages.length; i++) {
    out.writeUInt32LE(i >>> 0, i * 24);
    out.writeBigUInt64LE((BigInt(pages[i]) * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn, i * 24 + 4);
    out.writeUInt32LE(4096, i * 24 + 12);
    out.writeBigInt64LE(-1n, i * 24 + 16);
  }
  writeFileSync(file, out);
}

function timed(command: string, args: string[], cwd: string): { seconds: number; out: string } {
  const started = now();
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 24, cwd });
  const seconds = (now() - started) / 1000;
  if (r.error) throw new UsageError(`cannot run ${command}: ${(r.error as NodeJS.ErrnoException).code ?? r.error.message}`);
  if (r.status !== 0) throw new Error(`${command} exited with ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').pop() ?? ''}`);
  return { seconds, out: r.stdout + r.stderr };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface ReplayBenchOptions {
  cachesim: string;
  /** The program under test: node and the path of this program's entry. */
  node: string;
  cli: string;
  accesses: number;
  pool: number;
  rounds: number;
  /** Named oracleGeneral files; the standard generated traces when none. */
  traces?: Record<string, string>;
}

export function runReplayBench(o: ReplayBenchOptions): ReplayBenchRow[] {
  const dir = mkdtempSync(join(tmpdir(), 'bufferlens-replay-'));
  try {
    const traces = o.traces ?? {
      'miss-heavy': join(dir, 'miss-heavy.oracleGeneral'),
      'hit-heavy': join(dir, 'hit-heavy.oracleGeneral'),
    };
    if (!o.traces) {
      writeOracleGeneral(traces['miss-heavy'], missHeavy(o.accesses, o.pool));
      writeOracleGeneral(traces['hit-heavy'], hitHeavy(o.accesses, o.pool));
    }
    // cachesim writes a result file into its working directory: the temporary one.
    return Object.entries(traces).flatMap(([name, file]) =>
      benchOneTrace({ ...o, cachesim: o.cachesim.includes('/') ? resolve(o.cachesim) : o.cachesim, cli: resolve(o.cli) }, name, resolve(file), dir),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function benchOneTrace(o: ReplayBenchOptions, trace: string, file: string, cwd: string): ReplayBenchRow[] {
  const anchorArgs = [file, 'oracleGeneral', 'lru', String(o.pool), '--ignore-obj-size', '1'];
  const ourArgs = (model: string) => [o.cli, 'simulate', '--model', model, '--pool', String(o.pool), '--trace', file, '--format', 'oracleGeneral', '--json'];
  const times: Record<string, number[]> = { cachesim: [] };
  const missRatios: Record<string, number> = {};
  let accesses = 0;
  for (let round = 0; round < o.rounds; round++) {
    const anchor = timed(o.cachesim, anchorArgs, cwd);
    times.cachesim.push(anchor.seconds);
    missRatios.cachesim = cachesimMissRatio(anchor.out);
    for (const model of REPLAY_MODELS) {
      const ours = timed(o.node, ourArgs(model), cwd);
      const parsed = JSON.parse(ours.out) as { missRatio: number; accesses: number };
      (times[model] ??= []).push(ours.seconds);
      missRatios[model] = parsed.missRatio;
      accesses = parsed.accesses;
    }
  }
  // cachesim prints four decimals.
  if (Math.abs(missRatios.lru - missRatios.cachesim) > 0.00005 + 1e-12) {
    throw new Error(`on ${trace} the LRU miss ratio is ${missRatios.lru.toFixed(6)} here and ${missRatios.cachesim} in cachesim`);
  }
  const anchorSeconds = median(times.cachesim);
  const row = (program: string, model: string, key: string): ReplayBenchRow => {
    const seconds = median(times[key]);
    return {
      trace,
      program,
      model,
      accesses,
      seconds,
      accessesPerSecond: accesses / seconds,
      missRatio: missRatios[key],
      timesFasterThanCachesim: anchorSeconds / seconds,
    };
  };
  return [row('libCacheSim cachesim', 'lru', 'cachesim'), ...REPLAY_MODELS.map((m) => row('bufferlens simulate', m, m))];
}

export function replayBenchTable(rows: ReplayBenchRow[], rounds: number): string {
  const lines = ['trace       program               model        whole process  M acc/s  × cachesim  miss ratio'];
  for (const r of rows) {
    const speed = `${(r.accessesPerSecond / 1e6).toFixed(1).padStart(8)} ${r.timesFasterThanCachesim.toFixed(1).padStart(11)}`;
    lines.push(
      `${r.trace.padEnd(11)} ${r.program.padEnd(21)} ${r.model.padEnd(11)} ${`${r.seconds.toFixed(2)} s`.padStart(14)} ${speed}  ${r.missRatio.toFixed(4)}`,
    );
  }
  lines.push(`(${rounds === 1 ? 'one round' : `median of ${rounds} rounds`}; each a fresh process reading the trace file, the programs taking turns)`);
  return lines.join('\n');
}
