// Records the predict step's golden fixtures from real measurements: private PostgreSQL and MariaDB
// servers are started, loaded and measured; what the predict step was given is written as
// test/fixtures/predict/<engine>/NN-name.input.json, and what it returns as .expect.json.
// Run it (npm run fixtures:predict) after a deliberate change of the models; the test then pins it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalPostgres } from '../src/local-server/postgres';
import { LocalInnodbServer } from '../src/local-server/mariadb';
import { parseConnectionUrl } from '../src/db/connection-url';
import { measure } from '../src/measure/measure';
import { predictFixture, type PredictFixtureInput } from '../test/predict/fixture-loop';
import { need, mariadb, systemPostgres } from '../test/support/engines';
import { pgQuery } from '../test/support/sql';
import { loadLab } from '../test/accuracy/scenarios';

const DIR = 'test/fixtures/predict';

function write(engine: string, n: number, name: string, input: PredictFixtureInput): void {
  const dir = join(DIR, engine);
  mkdirSync(dir, { recursive: true });
  const base = join(dir, `${String(n).padStart(2, '0')}-${name}`);
  writeFileSync(`${base}.input.json`, JSON.stringify(input, null, 1) + '\n');
  writeFileSync(`${base}.expect.json`, JSON.stringify(predictFixture(input), null, 1) + '\n');
  console.log(`wrote ${base}.{input,expect}.json`);
}

async function capture(url: string, sql: string, restart: () => Promise<void>, runs = 3): Promise<PredictFixtureInput> {
  await restart();
  let input: PredictFixtureInput | undefined;
  await measure(parseConnectionUrl(url), {
    sql,
    runs,
    cold: 'no',
    commit: false,
    timing: false,
    timeoutMs: 60_000,
    whatIf: true,
    onPredictionInput: (i) => (input = { ...i, statement: sql }),
  });
  return input!;
}

async function postgres(): Promise<void> {
  const server = await LocalPostgres.start({ binaries: need(systemPostgres()), settings: { shared_buffers: '16MB', max_parallel_workers_per_gather: 0 } });
  const url = server.url();
  try {
    for (const s of [
      'CREATE EXTENSION pg_buffercache',
      `CREATE TABLE big (id int, pad text) WITH (autovacuum_enabled = off)`,
      `INSERT INTO big SELECT g, repeat('x', 200) FROM generate_series(1, 36000) g`,
      `CREATE TABLE uncorr (id int, pad text) WITH (autovacuum_enabled = off)`,
      `INSERT INTO uncorr SELECT g, repeat('u', 250) FROM generate_series(1, 30000) g ORDER BY md5(g::text)`,
      'CREATE INDEX uncorr_id ON uncorr (id)',
      'CREATE TABLE ins (id serial PRIMARY KEY, k int NOT NULL) WITH (autovacuum_enabled = off)',
      'CREATE INDEX ins_k ON ins (k)',
      `INSERT INTO ins (k) SELECT (abs(hashint4(g + 7000000)::bigint) % 1000000000)::int FROM generate_series(1, 200000) g`,
      'VACUUM (FREEZE, ANALYZE)',
      'CHECKPOINT',
    ]) {
      await pgQuery(url, s);
    }
    const restart = () => server.restart();
    write('postgresql', 1, 'seqscan-above-ring-threshold', await capture(url, 'SELECT count(*) FROM big', restart));
    write('postgresql', 2, 'uncorrelated-index-range', await capture(url, 'SELECT sum(length(pad)) FROM uncorr WHERE id BETWEEN 1000 AND 4000', restart));
    write(
      'postgresql',
      3,
      'random-key-insert',
      await capture(url, `INSERT INTO ins (k) SELECT (abs(hashint4(g)::bigint) % 1000000000)::int FROM generate_series(1, 5000) g`, restart),
    );
  } finally {
    await server.stop();
  }
}

async function innodb(): Promise<void> {
  const server = await LocalInnodbServer.start({ binaries: need(mariadb()), settings: { 'innodb-buffer-pool-size': '128M' } });
  try {
    await loadLab(server, [
      'CREATE TABLE t (id INT PRIMARY KEY, amount INT NOT NULL, payload VARCHAR(500) NOT NULL) ENGINE=InnoDB',
      `INSERT INTO t SELECT seq, seq % 1000, REPEAT('x', 500) FROM seq_1_to_30000`,
      'CREATE TABLE r (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(200) NOT NULL, KEY k (k)) ENGINE=InnoDB',
      `INSERT INTO r SELECT seq, FLOOR(RAND(3) * 100000), REPEAT('r', 200) FROM seq_1_to_100000`,
      'CREATE TABLE s (id INT PRIMARY KEY, rid INT NOT NULL) ENGINE=InnoDB',
      'INSERT INTO s SELECT seq, FLOOR(RAND(5) * 100000) + 1 FROM seq_1_to_2000',
      'ANALYZE TABLE t, r, s',
    ]);
    const url = server.url('lab');
    const restart = () => server.restart({});
    write('innodb', 1, 'cold-full-scan', await capture(url, 'SELECT SUM(amount), SUM(OCTET_LENGTH(payload)) FROM t', restart));
    write('innodb', 2, 'secondary-range-with-lookups', await capture(url, 'SELECT SUM(LENGTH(pad)) FROM r WHERE k BETWEEN 1000 AND 3000', restart));
    write('innodb', 3, 'eq-ref-join', await capture(url, 'SELECT SUM(LENGTH(r.pad)) FROM s JOIN r ON r.id = s.rid', restart));
    write(
      'innodb',
      4,
      'random-key-insert-rolled-back',
      await capture(url, "INSERT INTO r (id, k, pad) SELECT 200000 + seq, FLOOR(RAND(11) * 100000), REPEAT('n', 200) FROM seq_1_to_3000", restart, 2),
    );
  } finally {
    await server.stop();
  }
}

postgres()
  .then(innodb)
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
