// A warm pool: the prediction starts from shared buffers as pg_buffercache showed them (buffer ids and
// usage counts), not from the cached blocks laid out in block order, which evicted exactly the pages an
// index range needs next. Measured on a real server after a mixed workload.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, systemPostgres } from '../support/engines';
import { predictPostgres } from '../../src/predict/postgres/predict';
import type { PgPredictionInput } from '../../src/predict/postgres/facts';
import { measurePg } from '../support/pg-lab';

const availability = systemPostgres();

describe('PostgreSQL warm pool: the starting state follows pg_buffercache', skipUnless(availability), () => {
  test('uncorrelated index ranges after a mixed workload: within 12 % on run 1, and closer than block order', async () => {
    const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '16MB', max_parallel_workers_per_gather: 0 } });
    try {
      const c = new Client({ connectionString: server.url() });
      await c.connect();
      for (const q of [
        'CREATE EXTENSION pg_buffercache',
        'CREATE TABLE u (id int, pad text) WITH (autovacuum_enabled = off)',
        `INSERT INTO u SELECT g, repeat('u', 250) FROM generate_series(1, 60000) g ORDER BY md5(g::text)`,
        'CREATE INDEX u_id ON u (id)',
        'CREATE TABLE o (id int, pad text) WITH (autovacuum_enabled = off)',
        `INSERT INTO o SELECT g, repeat('o', 200) FROM generate_series(1, 20000) g`,
        'VACUUM ANALYZE',
      ]) {
        await c.query(q);
      }
      await c.end();
      await server.restart();
      const w = new Client({ connectionString: server.url() });
      await w.connect();
      for (let i = 0; i < 40; i++) await w.query(`SELECT sum(length(pad)) FROM u WHERE id BETWEEN ${i * 1500} AND ${i * 1500 + 300}`);
      await w.query('SELECT count(*) FROM o');
      for (let i = 0; i < 300; i++) await w.query(`SELECT pad FROM u WHERE id = ${(i * 7919) % 60000}`);
      await w.end();
      for (const sql of [
        'SELECT sum(length(pad)) FROM u WHERE id BETWEEN 10000 AND 12000',
        'SELECT sum(length(pad)) FROM u WHERE id BETWEEN 30000 AND 31500',
      ]) {
        let input: { facts: unknown; runs: unknown[] } | undefined;
        const report = await measurePg(server, sql, { runs: 2, onPredictionInput: (i) => (input = i) });
        const facts = input!.facts as Omit<PgPredictionInput, 'runs'>;
        assert.ok(facts.settings.bufferSeed, 'the seed was read');
        const { bufferSeed: _, ...blockOrder } = facts.settings;
        const old = predictPostgres({ relations: facts.relations, settings: blockOrder, runs: input!.runs as PgPredictionInput['runs'] }, { whatIf: false });
        const m = report.runs[0].measured.physicalReads!;
        const p = report.runs[0].predicted.physicalReads!;
        const o = old.runs[0].predicted.physicalReads!;
        assert.ok(Math.abs(p - m) / m <= 0.12, `${sql}: measured ${m}, predicted ${p}`);
        assert.ok(Math.abs(p - m) < Math.abs(o - m), `${sql}: seeded ${p} is closer to ${m} than block order ${o}`);
      }
    } finally {
      await server.stop();
    }
  });
});
