// Long values stored out of line (TOAST), measured on real servers (PostgreSQL 15 and 18), cold then warm:
// every expression that needs such a value's bytes fetches it again from the TOAST table — a descent of its
// index and the blocks of its chunks. Before, none of it was predicted (4 pages against 150 for
// sum(length(doc)) over 61 rows, 22 against 7,025 for a filter on length(doc) over the table) and nothing
// said so. Passing the column on, or asking only a value's size, fetches nothing.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import { assertRunsWithin } from '../support/runs';
import { measurePg } from '../support/pg-lab';

const STATEMENTS: Array<[string, string]> = [
  ['a computed output over a key range', 'SELECT sum(length(doc)) FROM docs WHERE id BETWEEN 100 AND 160'],
  ['a filter over the whole table', 'SELECT count(*) FROM docs WHERE length(doc) > 10'],
  ["a scan's own output, sorted above it", 'SELECT upper(doc) FROM docs WHERE id BETWEEN 1000 AND 1100 ORDER BY k'],
  ['rows anywhere in the table', 'SELECT sum(length(doc)) FROM docs WHERE k = 7'],
  // m scatters the rows over the table: a bitmap heap scan reads them in block order, and their values lie
  // as far apart (they had been taken as one run of neighbouring values, a quarter fewer blocks).
  ['rows of a bitmap heap scan spread over the table', 'SELECT sum(length(doc)) FROM docs WHERE m BETWEEN 100 AND 180'],
  ["a filter's later clause, on the rows the first lets through", 'SELECT count(*) FROM docs d WHERE d.k = 5 AND length(d.doc) > 10'],
  ['the column passed on (nothing fetched)', 'SELECT doc FROM docs WHERE id BETWEEN 100 AND 160'],
  ["only the values' size (nothing fetched)", 'SELECT count(*) FROM docs WHERE octet_length(doc) > 10'],
];

for (const [name, availability] of postgresServers()) {
  describe(`out-of-line values read again: ${name}`, skipUnless(availability), () => {
    test('outputs, filters and aggregates that read TOASTed values: logical and physical reads within 5 %', async () => {
      const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '32MB', max_parallel_workers_per_gather: 0 } });
      try {
        const c = new Client({ connectionString: server.url() });
        await c.connect();
        await c.query('CREATE TABLE docs (id serial PRIMARY KEY, k int NOT NULL, doc text NOT NULL, note text, m int NOT NULL)');
        // Hex text does not compress: 2.5 to 9 kB out of line in 2 to 5 chunks; every third row short, inline.
        await c.query(`INSERT INTO docs (k, doc, note, m)
                       SELECT g % 100, CASE WHEN g % 3 = 0 THEN 'short' || g
                                       ELSE (SELECT string_agg(md5((g * 1000 + s)::text), '') FROM generate_series(1, 80 + (g % 5) * 50) s) END, 'n' || g,
                              (g * 7919) % 3001
                         FROM generate_series(1, 3000) g`);
        await c.query('CREATE INDEX docs_m ON docs (m)');
        await c.query('CREATE EXTENSION pg_buffercache');
        await c.query('VACUUM ANALYZE');
        await c.end();
        for (const [what, sql] of STATEMENTS) {
          await server.restart();
          const report = await measurePg(server, sql, { runs: 2 });
          assertRunsWithin(report, what, 1);
          const toast = report.runs[0].residency.find((r) => r.relation.startsWith('pg_toast.') && !r.relation.endsWith('_index'));
          const fetches = /nothing fetched/.test(what);
          assert.equal((toast?.cachedAfter ?? 0) > 0, !fetches, `${what}: the TOAST table ${fetches ? 'untouched' : 'read'}`);
          assert.deepEqual(report.runs[0].prediction?.unmodelled, [], `${what}: nothing left unmodelled`);
        }
      } finally {
        await server.stop();
      }
    });
  });
}
