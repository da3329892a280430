// INSERT … SELECT into a table with a partial index, on real servers (PostgreSQL 15 and 18): only the rows
// that satisfy the index's predicate take an entry (here one in ten, each at a random leaf). Before, every
// inserted row was given one: 20,000 descents where 2,000 happen. The predicate comes from the catalog, and
// how many inserted rows satisfy it is asked after the runs (partial-entries.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import { pgQuery } from '../support/sql';
import { measurePg } from '../support/pg-lab';
import { predictFixture, type PredictFixtureInput } from './fixture-loop';

const INSERT = 'INSERT INTO orders (id, status, code, pad) SELECT id + 200000, status, code + 7, pad FROM orders WHERE id BETWEEN 5001 AND 25000';

for (const [name, availability] of postgresServers()) {
  describe(`INSERT … SELECT into a table with a partial index: ${name}`, skipUnless(availability), () => {
    test("run 1 within 5 %, the partial index's entries counted after the runs", async () => {
      const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '32MB', max_parallel_workers_per_gather: 0 } });
      try {
        for (const q of [
          'CREATE EXTENSION pg_buffercache',
          'CREATE TABLE orders (id bigint PRIMARY KEY, status int NOT NULL, code bigint NOT NULL, pad text NOT NULL)',
          `INSERT INTO orders SELECT g, g % 10, abs(hashint8(g)) % 1000000, repeat('x', 100) FROM generate_series(1, 200000) g`,
          'CREATE INDEX orders_open_code ON orders (code) WHERE status = 1',
          'VACUUM ANALYZE orders',
        ])
          await pgQuery(server.url(), q);
        await server.restart();
        let input: PredictFixtureInput | undefined;
        const report = await measurePg(server, INSERT, { onPredictionInput: (i) => (input = i as PredictFixtureInput) });
        const first = report.runs[0];
        const [measured, predicted] = [first.measured.logicalReads!, first.predicted.logicalReads!];
        assert.ok(Math.abs(predicted - measured) <= 0.05 * measured, `run 1: ${measured} logical reads, ${predicted} predicted`);
        assert.match(
          first.prediction!.assumptions.join('\n'),
          /orders_open_code: partial \(\(?status = 1\)?\): 2,000 of the 20,000 inserted rows satisfy it \(read after the runs\)/,
        );
        // Every row given an entry, as before: far over.
        const facts = input!.facts as { relations: Array<{ predicate?: string }>; settings: Record<string, unknown> };
        const { partialEntries: _p, ...settings } = facts.settings;
        const everyRow = predictFixture({ ...input!, facts: { relations: facts.relations.map(({ predicate: _q, ...f }) => f), settings } }, { whatIf: false })
          .runs[0].predicted.logicalReads!;
        assert.ok(everyRow > 1.3 * measured, `the mechanism matters: an entry for every row predicts ${everyRow} logical reads, ${measured} measured`);
      } finally {
        await server.stop();
      }
    });
  });
}
