// One trace of page requests for a workload: transactions chosen by weight as pgbench chooses scripts,
// each script's `\set` lines evaluated, each modelled statement's shapes emitted for those values.
import { SeededRandom } from '../sim/random';
import type { CompiledWorkload } from './compiled';
import { compileExpression, type EvalContext, type Value } from './expression';
import type { AccessShape } from './shapes';
import { ShapeEmitter } from './shapes';

export interface WorkloadTrace {
  accesses: Int32Array;
  /** Per access: which statement (index into `statements`) requested it. */
  statementOf: Uint16Array;
  statements: Array<{ script: number; statement: number }>;
  /** Index of the first access of transaction `warmup` (the measured part starts there). */
  measuredFrom: number;
  warmup: number;
  transactions: number;
  /** Per statement, executions in the measured part. */
  executions: Float64Array;
}

class Growable {
  pages = new Int32Array(1 << 16);
  owners = new Uint16Array(1 << 16);
  length = 0;

  push(values: number[], owner: number): void {
    if (this.length + values.length > this.pages.length) this.reserve(Math.max(this.pages.length * 2, this.length + values.length));
    const pages = this.pages;
    const owners = this.owners;
    let n = this.length;
    for (let i = 0; i < values.length; i++) {
      pages[n] = values[i];
      owners[n++] = owner;
    }
    this.length = n;
  }

  /** Room for `capacity` requests in all, in one copy: a trace of 10^8 requests doubled its way up in 11. */
  reserve(capacity: number): void {
    if (capacity <= this.pages.length) return;
    const p = new Int32Array(capacity);
    p.set(this.pages.subarray(0, this.length));
    const o = new Uint16Array(capacity);
    o.set(this.owners.subarray(0, this.length));
    this.pages = p;
    this.owners = o;
  }
}

/**
 * Purge's requests waiting for their transaction to fall `lag` transactions behind. With no lag they run
 * right after their transaction, before the next one starts.
 */
class PurgeQueue {
  private readonly queue: Array<{ after: number; pages: number[]; owner: number }> = [];
  private head = 0;

  constructor(private readonly lag: number) {}

  add(t: number, pages: number[], owner: number): void {
    this.queue.push({ after: t + Math.max(1, Math.round(this.lag)), pages: pages.slice(), owner });
  }

  release(t: number, out: Growable): void {
    while (this.head < this.queue.length && this.queue[this.head].after <= t) {
      const { pages, owner } = this.queue[this.head];
      this.queue[this.head++] = undefined as never;
      out.push(pages, owner);
    }
    if (this.head > 4096 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }
}

export function buildTrace(w: CompiledWorkload, warmup: number, measured: number, seed = 1): WorkloadTrace {
  const rnd = new SeededRandom(seed);
  const statements: WorkloadTrace['statements'] = [];
  const ids = w.scripts.map((s, si) => s.statements.map((_, i) => statements.push({ script: si, statement: i }) - 1));
  const cumulative: number[] = [];
  let total = 0;
  for (const s of w.scripts) cumulative.push((total += s.script.weight));
  // Each script as a list of steps, its expressions compiled once: the loop below runs millions of times.
  type Step = { set: string; fn: (ctx: EvalContext) => Value } | { statement: number; shapes: AccessShape[] | null; purge: AccessShape[] | null };
  const programs: Step[][] = w.scripts.map((script, si) => {
    let k = 0;
    const steps: Step[] = [];
    for (const c of script.script.commands) {
      if (c.kind === 'set') steps.push({ set: c.name, fn: compileExpression(c.expr) });
      else if (c.kind === 'sql') {
        const stmt = script.statements[k];
        steps.push({ statement: ids[si][k++], shapes: stmt.notModelled ? null : stmt.shapes, purge: stmt.notModelled ? null : (stmt.purge ?? null) });
      }
    }
    return steps;
  });
  // As a pgbench client's: set once (-D, :scale), then kept from one transaction to the next.
  const vars = new Map<string, Value>(w.fixed);
  const ctx: EvalContext = { variables: vars, random: rnd };
  const emitter = new ShapeEmitter();
  const out = new Growable();
  const buffer: number[] = [];
  const executions = new Float64Array(statements.length);
  let measuredFrom = 0;
  const transactions = warmup + measured;
  // After a sample of transactions, room for the rest at their mean size (and a margin) at once.
  const sample = Math.min(transactions, 4096);
  const purges = new PurgeQueue(w.purgeLag ?? 0);
  for (let t = 0; t < transactions; t++) {
    if (t === sample && t < transactions) out.reserve(Math.ceil((out.length / sample) * transactions * 1.02) + 1024);
    if (t === warmup) measuredFrom = out.length;
    purges.release(t, out);
    const pick = rnd.next() * total;
    let si = 0;
    while (cumulative[si] <= pick) si++;
    for (const step of programs[si]) {
      if ('set' in step) vars.set(step.set, step.fn(ctx));
      else {
        if (t >= warmup) executions[step.statement]++;
        if (!step.shapes) continue;
        buffer.length = 0;
        for (const shape of step.shapes) emitter.emit(shape, vars, buffer);
        out.push(buffer, step.statement);
        if (step.purge) {
          buffer.length = 0;
          for (const shape of step.purge) emitter.emit(shape, vars, buffer);
          purges.add(t, buffer, step.statement);
        }
      }
    }
  }
  if (warmup >= transactions) measuredFrom = out.length;
  return {
    accesses: out.pages.subarray(0, out.length),
    statementOf: out.owners.subarray(0, out.length),
    statements,
    measuredFrom,
    warmup,
    transactions: measured,
    executions,
  };
}
