// `bufferlens bench`'s workload line: how long a pool-size curve takes, from the trace of a generated
// uniform lookup workload (a 1,000,000-key index over a 200,000-page table) to seven pool sizes, per engine
// model, fully and by miniature simulation. Prints times, never asserts them.
import { InnodbPool } from '../sim/policies/innodb-lru';
import { PostgresPool } from '../sim/policies/postgres-clock-sweep';
import type { CompiledWorkload } from './compiled';
import { poolCurve } from './curve';
import { btreePath, type TableLayout } from './layout';
import { parseScript } from './script';
import { buildTrace } from './trace';

export interface WorkloadBenchResult {
  model: string;
  accesses: number;
  traceSeconds: number;
  curveSeconds: number;
  sampleRate: number;
  sizes: number;
  /** Largest |sampled − full| miss ratio over the sizes, where both were run. */
  sampledError?: number;
}

export function syntheticWorkload(makePool: CompiledWorkload['makePool']): CompiledWorkload {
  const index = btreePath(
    'bench_pkey',
    (k) => 0x1000000 + k,
    (level, k) => 0x1800000 + level * 0x10000 + k,
    2500,
    400,
    400,
  );
  const heap: TableLayout = { name: 'bench', pages: 200_000, rows: 1_000_000, page: (k) => k, correlated: true };
  const [script] = parseScript('\\set a random(1, 1000000)\nSELECT v FROM bench WHERE id = :a;\n', 'bench.sql');
  return {
    engine: 'postgresql',
    server: 'generated',
    scripts: [
      {
        script,
        statements: [
          {
            text: 'SELECT v FROM bench WHERE id = :a',
            line: 2,
            role: 'read',
            notes: [],
            shapes: [
              {
                kind: 'lookup',
                index,
                keyMin: 1,
                keyMax: 1_000_000,
                key: { variable: 'a' },
                rowsPerKey: 1,
                rows: { kind: 'heap', table: heap, correlated: false },
              },
            ],
          },
        ],
      },
    ],
    fixed: new Map(),
    poolPages: 16_384,
    pageBytes: 8192,
    relations: [
      { name: 'bench', pages: 200_000 },
      { name: 'bench_pkey', pages: 2500 },
    ],
    makePool,
    notes: [],
  };
}

export function runWorkloadBench(accesses: number): WorkloadBenchResult[] {
  const sizes = [4096, 8192, 16_384, 32_768, 65_536, 131_072, 262_144];
  const out: WorkloadBenchResult[] = [];
  const models: Array<[string, CompiledWorkload['makePool']]> = [
    ['postgresql', (p) => new PostgresPool(p)],
    ['innodb', (p, ms) => new InnodbPool(p, ms ? { msPerAccess: ms } : {})],
  ];
  const t0 = performance.now();
  const w = syntheticWorkload(models[0][1]);
  // Four requests a transaction (root, two levels, heap page): half warm-up, half counted.
  const trace = buildTrace(w, Math.round(accesses / 8), Math.round(accesses / 8), 1);
  const traceSeconds = (performance.now() - t0) / 1000;
  for (const [model, makePool] of models) {
    const wm = { ...w, makePool };
    const full = accesses <= 20_000_000 ? poolCurve(wm, trace, sizes, { fullAccesses: Infinity }) : undefined;
    const t1 = performance.now();
    const sampled = poolCurve(wm, trace, sizes, { fullAccesses: Math.min(accesses / 4, 10_000_000) });
    const curveSeconds = (performance.now() - t1) / 1000;
    out.push({
      model,
      accesses: trace.accesses.length,
      traceSeconds,
      curveSeconds,
      sampleRate: sampled.sampleRate,
      sizes: sizes.length,
      ...(full ? { sampledError: Math.max(...sampled.points.map((p, i) => Math.abs(p.missRatio - full.points[i].missRatio))) } : {}),
    });
    if (full)
      out.push({ model: `${model} (full)`, accesses: trace.accesses.length, traceSeconds, curveSeconds: full.seconds, sampleRate: 1, sizes: sizes.length });
  }
  return out;
}
