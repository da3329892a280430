// Each B-tree's levels, read after the runs by a descent the server counts (index-height.ts), on a real
// server: equal to what the index's own metapage says (pageinspect's bt_metap), for a sorted build of two
// columns, a key grown by inserts, a covering index and a partial one, and the geometry the prediction walks
// has them. Also after a write measured (rolled back) cleared the all-visible bit of the pages holding each
// index's first rows: the probe that asked for the first key fetched its row then, and read no height.
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
        'CREATE EXTENSION pg_visibility',
        'CREATE TABLE t (id int PRIMARY KEY, code bigint NOT NULL, amount int NOT NULL, pad text)',
        `INSERT INTO t SELECT g, abs(hashint8(g)) % 100000000, g % 5000, repeat('x', 200) FROM generate_series(1, 120000) g`,
        'CREATE UNIQUE INDEX t_code ON t (code, id)',
        'CREATE INDEX t_amount ON t (amount) INCLUDE (code)',
        'CREATE INDEX t_open ON t (code) WHERE amount < 2500',
        'VACUUM ANALYZE t',
      ])
        await pgQuery(server.url(), q);
      const names = ['t_pkey', 't_code', 't_amount', 't_open'];
      await heightsRead(server, 'SELECT count(*) FROM t WHERE amount BETWEEN 10 AND 20', names);
      // The first rows of every index: id 1 (t_pkey), amount 0 (t_amount), the smallest codes (t_code, t_open).
      const write = "UPDATE t SET pad = 'y' WHERE id = 1 OR amount = 0 OR code < 2000";
      await heightsRead(server, write, names);
      const [visible] = await pgQuery<{ n: string }>(server.url(), "SELECT count(*) AS n FROM pg_visibility_map('t') WHERE NOT all_visible");
      assert.ok(Number(visible.n) > 0, 'the rolled-back runs left pages not all-visible');
    } finally {
      await server.stop();
    }
  });
});

async function heightsRead(server: LocalPostgres, sql: string, names: string[]): Promise<void> {
  let facts: PgRelationFacts[] = [];
  await measurePg(server, sql, { onPredictionInput: (i) => (facts = (i.facts as { relations: PgRelationFacts[] }).relations) });
  for (const name of names) {
    const [meta] = await pgQuery<{ level: number }>(server.url(), `SELECT level FROM bt_metap('${name}')`);
    const f = facts.find((x) => x.reportName === name);
    assert.ok(f, `${name}: among the facts of ${sql}`);
    assert.equal(f.height, Number(meta.level) + 1, `${name} after ${sql}: ${f.height} levels read, the metapage's root at level ${meta.level}`);
    assert.equal(indexGeometry(f).height, f.height, `${name}: the geometry has the levels read`);
  }
}
