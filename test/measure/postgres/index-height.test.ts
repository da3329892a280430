// Each B-tree's levels, read after the runs by a descent the server counts (index-height.ts), on a real
// server: equal to what the index's own metapage says (pageinspect's bt_metap), for a sorted build of two
// columns, a key grown by inserts and a covering index, and the geometry the prediction walks has them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../../src/local-server/postgres';
import { need, skipUnless, systemPostgres } from '../../support/engines';
import { pgQuery } from '../../support/sql';
import { measurePg } from '../../support/pg-lab';
import type { PgRelationFacts } from '../../../src/predict/postgres/facts';
import { indexGeometry } from '../../../src/predict/postgres/geometry';

const availability = systemPostgres();

describe("PostgreSQL: an index's levels read after the runs", skipUnless(availability), () => {
  test("as the index's metapage counts them, and the geometry follows", async () => {
    const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '64MB', autovacuum: false } });
    try {
      for (const q of [
        'CREATE EXTENSION pg_buffercache',
        'CREATE EXTENSION pageinspect',
        'CREATE TABLE t (id int PRIMARY KEY, code bigint NOT NULL, amount int NOT NULL, pad text)',
        `INSERT INTO t SELECT g, abs(hashint8(g)) % 100000000, g % 5000, repeat('x', 200) FROM generate_series(1, 120000) g`,
        'CREATE UNIQUE INDEX t_code ON t (code, id)',
        'CREATE INDEX t_amount ON t (amount) INCLUDE (code)',
        'VACUUM ANALYZE t',
      ])
        await pgQuery(server.url(), q);
      let facts: PgRelationFacts[] = [];
      await measurePg(server, 'SELECT count(*) FROM t WHERE amount BETWEEN 10 AND 20', {
        onPredictionInput: (i) => (facts = (i.facts as { relations: PgRelationFacts[] }).relations),
      });
      for (const name of ['t_pkey', 't_code', 't_amount']) {
        const [meta] = await pgQuery<{ level: number }>(server.url(), `SELECT level FROM bt_metap('${name}')`);
        const f = facts.find((x) => x.reportName === name)!;
        assert.equal(f.height, Number(meta.level) + 1, `${name}: ${f.height} levels read, the metapage's root at level ${meta.level}`);
        assert.equal(indexGeometry(f).height, f.height, `${name}: the geometry has the levels read`);
      }
    } finally {
      await server.stop();
    }
  });
});
