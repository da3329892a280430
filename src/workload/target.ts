// The smallest pool that reaches a planner's target: a hit ratio, a rate of page reads, a transaction rate
// or a p95 latency. Sizes are the curve's own (no value between two of them is made up); where the
// prediction has a band (transactions per second), the pessimistic end must reach the target.
import type { TargetRecommendation, WorkloadCurvePoint, WorkloadReport } from '../shared/workload-report';

export type TargetKind = TargetRecommendation['kind'];

export class TargetSyntaxError extends Error {}

const FORMS: Array<{ kind: TargetKind; names: string[]; unit: RegExp; scale: (x: number, unit: string) => number }> = [
  { kind: 'hit-ratio', names: ['hit-ratio', 'hit'], unit: /^%?$/, scale: (x, unit) => (unit === '%' || x > 1 ? x / 100 : x) },
  { kind: 'reads-per-second', names: ['reads-per-second', 'reads/s'], unit: /^$/, scale: (x) => x },
  { kind: 'transactions-per-second', names: ['tps', 'transactions-per-second'], unit: /^$/, scale: (x) => x },
  { kind: 'p95-latency-ms', names: ['p95', 'p95-latency'], unit: /^(ms)?$/, scale: (x) => x },
];

export const TARGET_FORMS = 'hit-ratio=99%, reads-per-second=500, tps=800 or p95=12ms';

export function parseTarget(text: string): { kind: TargetKind; value: number } {
  const m = /^\s*([a-z0-9/-]+)\s*=\s*([0-9]+(?:\.[0-9]+)?)\s*(%|ms)?\s*$/i.exec(text);
  const form = m && FORMS.find((f) => f.names.includes(m[1].toLowerCase()));
  if (!m || !form || !form.unit.test(m[3] ?? '')) throw new TargetSyntaxError(`--target takes ${TARGET_FORMS}, not "${text}"`);
  const value = form.scale(Number(m[2]), m[3] ?? '');
  if (form.kind === 'hit-ratio' && !(value > 0 && value <= 1)) throw new TargetSyntaxError(`a hit-ratio target is between 0 and 100 %, not "${text}"`);
  if (!(value > 0)) throw new TargetSyntaxError(`a target is above 0, not "${text}"`);
  return { kind: form.kind, value };
}

/** The value a size is judged by (the pessimistic end of a band), or why there is none. */
function judged(kind: TargetKind, p: WorkloadCurvePoint): number | string {
  switch (kind) {
    case 'hit-ratio':
      return p.hitRatio;
    case 'reads-per-second':
      return p.readsPerSecond ?? 'reads per second need a transaction rate: give one (--tps N) or run the workload';
    case 'transactions-per-second':
      return (
        p.throughput?.transactionsPerSecondRange[0] ?? 'transactions per second come from a measured run (workload run) that told a page read’s cost apart'
      );
    case 'p95-latency-ms':
      return p.throughput
        ? p.throughput.latencyP95Ms * (p.throughput.transactionsPerSecond / p.throughput.transactionsPerSecondRange[0])
        : 'latency comes from a measured run (workload run) that told a page read’s cost apart';
  }
}

const higherIsBetter = (kind: TargetKind) => kind === 'hit-ratio' || kind === 'transactions-per-second';

function describe(kind: TargetKind, value: number): string {
  switch (kind) {
    case 'hit-ratio':
      return `hit ratio ≥ ${(value * 100).toFixed(value * 100 >= 99.95 || Number.isInteger(value * 100) ? 0 : 1)} %`;
    case 'reads-per-second':
      return `≤ ${value} page reads per second`;
    case 'transactions-per-second':
      return `≥ ${value} transactions per second`;
    case 'p95-latency-ms':
      return `p95 latency ≤ ${value} ms`;
  }
}

/** The margin at the recommended size: how far past the target its (pessimistic) prediction is. */
function margin(kind: TargetKind, target: number, got: number): string {
  if (kind === 'hit-ratio') return `${((got - target) * 100).toFixed(2)} points above`;
  const ratio = higherIsBetter(kind) ? got / target - 1 : 1 - got / target;
  return `${(ratio * 100).toFixed(0)} % ${higherIsBetter(kind) ? 'above' : 'below'}`;
}

export function recommend(r: WorkloadReport, target: { kind: TargetKind; value: number }): TargetRecommendation {
  const base = { kind: target.kind, value: target.value, target: describe(target.kind, target.value) };
  const sorted = [...r.curve].sort((a, b) => a.poolBytes - b.poolBytes);
  const values = sorted.map((p) => judged(target.kind, p));
  const missing = values.find((v): v is string => typeof v === 'string');
  if (missing !== undefined) return { ...base, poolBytes: null, why: missing };
  const meets = (v: number) => (higherIsBetter(target.kind) ? v >= target.value : v <= target.value);
  const i = values.findIndex((v) => meets(v as number));
  if (i < 0) {
    const last = sorted[sorted.length - 1];
    return {
      ...base,
      poolBytes: null,
      why: `not reached by the largest size on the curve (${last.poolBytes} bytes: ${(values[values.length - 1] as number).toPrecision(4)})`,
    };
  }
  const got = values[i] as number;
  return {
    ...base,
    poolBytes: sorted[i].poolBytes,
    predicted: got,
    margin: margin(target.kind, target.value, got),
    ...(i > 0 ? { smallerMisses: { poolBytes: sorted[i - 1].poolBytes, predicted: values[i - 1] as number } } : {}),
  };
}
