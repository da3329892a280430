// One drawn schema measured on a private server as BufferLens measures (three runs, run 1 as found, writes
// rolled back), at three pool sizes set from the loaded data (far below it, about half of it, above it), in
// four states: cold (a restart before each statement), re-measured (the same statement measured again at
// once: run 1 finds every page it reads cached), warm (after a mixed workload with committed writes), and
// grown (after a committed update that lengthened a third of the rows; measured cold). Not a test file itself.
import { measureCorpusStatement, pagesRead, seeded, type CorpusResult, type CorpusStatement } from '../innodb-corpus';
import { loadStatements, growStatements } from './load';
import { describeSchema, type SchemaSpec } from './spec';
import { mixedStatement, schemaStatements } from './statements';
import type { SchemaServer } from './servers';
import type { Report } from '../../../src/shared/report';

export const WARM_UP_STATEMENTS = 1_500;

/** Pool sizes in MiB for data of `mb` MiB: about a sixth of it, about half, and a third more than all of it. */
export function poolSizes(mb: number, minMB: number): number[] {
  const round = (x: number) => Math.max(minMB, Math.round(x));
  return [...new Set([round(mb / 6), round(mb / 2), round(mb * 1.33 + 8)])];
}

export interface SchemaCorpusResult extends CorpusResult {
  schema: string;
  dataMB: number;
  pools: number[];
}

export async function schemaCorpus(server: SchemaServer, spec: SchemaSpec, onProgress: (line: string) => void = () => undefined): Promise<SchemaCorpusResult> {
  await server.exec(loadStatements(spec, server.dialect));
  const dataMB = await server.dataMB();
  const pools = poolSizes(dataMB, server.minPoolMB);
  const result: SchemaCorpusResult = { engine: server.engine, schema: describeSchema(spec), dataMB, pools, runs: [], inputs: [] };
  onProgress(`${server.engine} ${result.schema}: ${dataMB.toFixed(0)} MiB, pools ${pools.join(', ')} MiB`);
  const target = server.target();
  const measureOne = async (pool: number, state: string, s: CorpusStatement, earlier?: Report) => {
    const report = await measureCorpusStatement(target, result, `${pool} MiB`, state, s, earlier);
    const runs = report.runs.map(
      (r) => `logical ${r.measured.logicalReads}/${r.predicted.logicalReads} read ${pagesRead(r.measured)}/${pagesRead(r.predicted)}`,
    );
    onProgress(`  ${pool} MiB ${state} ${s.shape}: ${runs.join(' | ')}`);
    return report;
  };
  const statements = (salt: number) => schemaStatements(spec, seeded(spec.seed * 1_000 + salt), server.dialect);
  for (const [p, pool] of pools.entries()) {
    for (const s of statements(10 + p)) {
      await server.restart(pool);
      const cold = await measureOne(pool, 'cold', s);
      // Measured again at once, as a user re-measures in the editor: the earlier report goes with it.
      if (p === 1) await measureOne(pool, 're-measured', s, cold);
    }
  }
  for (const [p, pool] of pools.entries()) {
    await server.restart(pool);
    const rand = seeded(spec.seed * 1_000 + 20 + p);
    await server.exec(Array.from({ length: WARM_UP_STATEMENTS }, () => mixedStatement(spec, rand, server.dialect)));
    for (const s of statements(30 + p)) await measureOne(pool, 'warm', s);
  }
  await server.restart(pools[pools.length - 1]);
  await server.exec(growStatements(spec, server.dialect));
  for (const [p, pool] of pools.slice(0, 2).entries()) {
    for (const s of statements(40 + p)) {
      await server.restart(pool);
      await measureOne(pool, 'grown', s);
    }
  }
  return result;
}
