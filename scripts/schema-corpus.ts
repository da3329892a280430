// The schema corpus (test/accuracy/schemas/): schemas drawn from seeds, each loaded on a private server and
// measured at three pool sizes in four states, every run beside the model's prediction. Seeds are of two
// kinds, fixed here: those a session may study to find a missing mechanism (FIT_SEEDS), and those nobody
// looks at before the numbers are published (HELD_OUT_SEEDS); docs/accuracy.md reports both, apart.
//   npm run accuracy:schemas -- --engines postgres-15,mariadb --seeds 101,102   measure and record
//   npm run accuracy:schemas -- --regenerate                                      predict the recordings again
// Each measurement's prediction input goes to test/fixtures/corpus/schemas/<engine>-<seed>/ (gzipped JSON),
// its measured runs to test/fixtures/corpus/schemas/<engine>-<seed>-runs.json.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { findEmbeddedPostgres, findSystemPostgres } from '../src/local-server/postgres';
import { findInnodbServers } from '../src/local-server/mariadb';
import { drawSchema } from '../test/accuracy/schemas/spec';
import { schemaCorpus } from '../test/accuracy/schemas/run';
import { mariadbServer, postgresServer, type SchemaServer } from '../test/accuracy/schemas/servers';
import { SCHEMA_DIR, fixtureName, type SchemaRecording } from '../test/accuracy/schemas/recordings';
import { publishSchemaSection } from './schema-corpus-section';

async function startServer(engine: string): Promise<SchemaServer> {
  if (engine === 'mariadb') {
    const b = findInnodbServers().find((x) => x.product === 'mariadb');
    if (!b) throw new Error('no MariaDB binaries');
    return mariadbServer(b);
  }
  const major = Number(engine.replace('postgres-', ''));
  const b = [...findSystemPostgres(), ...[findEmbeddedPostgres()].filter((x) => x !== undefined)].find((x) => x.major === major);
  if (!b) throw new Error(`no PostgreSQL ${major} binaries`);
  return postgresServer(b);
}

async function record(engine: string, seed: number): Promise<void> {
  const server = await startServer(engine);
  try {
    const result = await schemaCorpus(server, drawSchema(seed), (line) => console.log(line));
    const recording: SchemaRecording = {
      engine: result.engine,
      seed,
      schema: result.schema,
      dataMB: Math.round(result.dataMB),
      pools: result.pools,
      runs: result.runs.map(({ sql: _sql, ...r }) => r),
      statements: result.inputs.map((x) => x.input.statement ?? ''),
    };
    const dir = join(SCHEMA_DIR, `${engine}-${seed}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    result.inputs.forEach(({ name, input }, k) => writeFileSync(join(dir, fixtureName(k, name)), gzipSync(JSON.stringify(input))));
    writeFileSync(`${dir}-runs.json`, JSON.stringify(recording, null, 0) + '\n');
  } finally {
    await server.stop();
  }
}

function option(name: string): string | undefined {
  const k = process.argv.indexOf(name);
  return k >= 0 ? process.argv[k + 1] : undefined;
}

async function main(): Promise<void> {
  if (!process.argv.includes('--regenerate')) {
    const engines = (option('--engines') ?? 'postgres-15,postgres-18,mariadb').split(',');
    const seeds = (option('--seeds') ?? '101').split(',').map(Number);
    for (const engine of engines) for (const seed of seeds) await record(engine, seed);
  }
  publishSchemaSection();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
