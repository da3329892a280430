// `bufferlens simulate`: replay a trace file through one model. The program loads this command alone
// (see bin.ts), because a replay is timed whole-process against other simulators.
import type { CliCommand } from './command';
import { intOption, parse, UsageError } from './args';
import { makeModel, type ModelName } from '../sim/models';
import type { TraceFormat } from '../sim/trace-format';
import { Replay } from '../sim/simulate';
import { streamTraceFile } from './trace-file';

export const SIMULATE: CliCommand = {
  name: 'simulate',
  summary: 'replay a page-access trace through a buffer-pool model',
  usage: 'bufferlens simulate --model lru|clock|postgresql|innodb --pool PAGES --trace FILE [--format u32|oracleGeneral] [--json]',
  details: [
    '--format u32            raw little-endian u32 page ids (default)',
    '--format oracleGeneral  libCacheSim binary records: u32 time, u64 object id, u32 size, i64 next access',
  ],
  async run(argv) {
    const { values } = parse(
      argv,
      { model: { type: 'string' }, pool: { type: 'string' }, trace: { type: 'string' }, format: { type: 'string' }, json: { type: 'boolean' } },
      { min: 0, max: 0, what: '' },
    );
    if (!['lru', 'clock', 'postgresql', 'innodb'].includes(String(values.model))) throw new UsageError('--model must be lru, clock, postgresql or innodb');
    const pool = intOption(values.pool, 'pool', 1, 1 << 26);
    if (pool === undefined) throw new UsageError('missing --pool PAGES');
    if (typeof values.trace !== 'string') throw new UsageError('missing --trace FILE');
    const format = values.format ?? 'u32';
    if (format !== 'u32' && format !== 'oracleGeneral') throw new UsageError('--format must be u32 or oracleGeneral');
    return runSimulate({ model: values.model as 'lru', pool, trace: values.trace, format, json: values.json === true });
  },
};

export function runSimulate(o: { model: ModelName; pool: number; trace: string; format: TraceFormat; json: boolean }): number {
  const replaying = new Replay(makeModel(o.model, o.pool));
  try {
    // Only InnoDB reads neighbours from page ids (its read-ahead areas).
    streamTraceFile(o.trace, o.format, (ids) => replaying.feed(ids), { spreadRenumbered: o.model === 'innodb' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code) throw new UsageError(`cannot read ${o.trace}: ${code}`);
    throw err;
  }
  const r = replaying.result();
  const out = {
    model: r.model,
    pool: r.pool,
    accesses: r.accesses,
    hits: r.hits,
    misses: r.misses,
    missRatio: r.missRatio,
    seconds: r.seconds,
    accessesPerSecond: r.accessesPerSecond,
  };
  if (o.json) process.stdout.write(JSON.stringify({ ...out, counters: r.counters }) + '\n');
  else {
    process.stdout.write(
      [
        `model ${r.model}, pool ${r.pool.toLocaleString('en-US')} pages, ${o.format} trace ${o.trace}`,
        `accesses  ${r.accesses.toLocaleString('en-US')}`,
        `hits      ${r.hits.toLocaleString('en-US')}`,
        `misses    ${r.misses.toLocaleString('en-US')}`,
        `miss ratio ${r.missRatio.toFixed(6)}`,
        `${(r.accessesPerSecond / 1e6).toFixed(1)} M accesses/s (${r.seconds.toFixed(3)} s)`,
        ...Object.entries(r.counters).map(([k, v]) => `  ${k} ${v.toLocaleString('en-US')}`),
      ].join('\n') + '\n',
    );
  }
  return 0;
}
