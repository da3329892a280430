// The two walks before run 1 give what the separate reads gave: the residency as readInnodbResidency
// groups it, the LRU list's length with every cached page of the statement's relations, and the undo
// tablespace's pages in LRU order; the seed's positions count from the list's head.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection, type Connection } from 'mysql2/promise';
import { LocalInnodbServer } from '../../../src/local-server/mariadb';
import { mariadb, need, skipUnless } from '../../support/engines';
import { readPoolWalk, readTableSpaces, type PoolWalk } from '../../../src/measure/innodb/pool-walk';
import { readInnodbResidency, resolveInnodbRelations } from '../../../src/measure/innodb/residency';

const availability = mariadb();

describe('MariaDB: one walk of the pool before run 1', skipUnless(availability), () => {
  let server: LocalInnodbServer;
  let c: Connection;

  before(async () => {
    server = await LocalInnodbServer.start({ binaries: need(availability), settings: { 'innodb-buffer-pool-size': '64M' } });
    c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    for (const s of [
      'CREATE DATABASE lab',
      'USE lab',
      'CREATE TABLE r (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(200) NOT NULL, KEY k (k)) ENGINE=InnoDB',
      `INSERT INTO r SELECT seq, FLOOR(RAND(3) * 100000), REPEAT('r', 200) FROM seq_1_to_100000`,
      'ANALYZE TABLE r',
    ])
      await c.query(s);
    // Pages in several runs: a restart empties the pool, then two ranges far apart and a few keys of the index.
    await server.restart({ 'innodb-buffer-pool-load-at-startup': 'OFF' });
    await c.end();
    c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root', database: 'lab' });
    await c.query('SELECT SUM(LENGTH(pad)) FROM r WHERE id BETWEEN 1000 AND 3000');
    await c.query('SELECT SUM(LENGTH(pad)) FROM r WHERE id BETWEEN 60000 AND 61000');
    await c.query('SELECT COUNT(*) FROM r FORCE INDEX (k) WHERE k BETWEEN 500 AND 900');
  });
  after(async () => {
    await c?.end().catch(() => undefined);
    await server?.stop();
  });

  test('the same residency, seed and undo pages as reading each on its own', async () => {
    const rels = await resolveInnodbRelations(c, [{ schema: 'lab', table: 'r' }]);
    assert.deepEqual(rels.map((r) => r.name).sort(), ['lab.r', 'lab.r.k']);
    // The server's background threads may read a page between two queries: compare reads that a walk
    // before and a walk after show were taken of the same pool.
    const separate = async () => {
      const [[summary]] = (await c.query(
        `SELECT COUNT(*) AS n, MIN(CASE WHEN IS_OLD = 'YES' THEN LRU_POSITION END) AS firstOld FROM information_schema.INNODB_BUFFER_PAGE_LRU`,
      )) as unknown as [Array<{ n: number; firstOld: number | null }>];
      const [undo] = await c.query(
        `SELECT PAGE_TYPE AS t, PAGE_NUMBER AS p FROM information_schema.INNODB_BUFFER_PAGE_LRU
          WHERE SPACE <= 0 AND PAGE_TYPE IN ('SYSTEM', 'UNDO_LOG', 'FILE_SPACE_HEADER', 'IBUF_BITMAP', 'INODE') ORDER BY LRU_POSITION`,
      );
      return {
        residency: await readInnodbResidency(c, rels, true),
        length: Number(summary.n),
        firstOld: summary.firstOld === null ? null : Number(summary.firstOld),
        undo: (undo as Array<{ t: string; p: number }>).map((x) => ({ t: x.t, p: Number(x.p) })),
      };
    };
    const state = (w: PoolWalk) => JSON.stringify([[...w.residency], w.seed, w.undoPages]);
    let walk = await readPoolWalk(c, rels, 0);
    let each = await separate();
    for (let tries = 0; tries < 50; tries++) {
      const again = await readPoolWalk(c, rels, 0);
      if (state(again) === state(walk)) break;
      walk = again;
      each = await separate();
    }
    assert.deepEqual(walk.residency, each.residency);
    const residency = each.residency;
    const table = residency.get('lab.r')!;
    assert.ok(table.ranges.length >= 2, `pages in runs apart: ${JSON.stringify(table.ranges)}`);
    assert.equal(walk.seed.length, each.length);
    assert.equal(walk.seed.firstOld, each.firstOld);
    const cached = [...residency.values()].reduce((a, r) => a + r.cached, 0);
    assert.equal(walk.seed.pages.length, cached);
    assert.ok(walk.seed.pages.every(([i, , pos]) => (i === 0 || i === 1) && pos >= 0 && pos < walk.seed.length));

    assert.deepEqual(walk.undoPages, each.undo);
    assert.ok(walk.undoPages!.length > 0);

    // Each cached index page counted by its records' bytes: the rows inserted in key order leave 1/16 of a page free.
    for (const [name, r] of residency) assert.equal(walk.fills.get(name)?.reduce((a, b) => a + b, 0) ?? 0, r.cached, name);
    const rows = walk.fills.get('lab.r')!;
    assert.ok(rows[18] > 0.9 * table.cached, `pages 90-95 % full: ${JSON.stringify(rows)}`);
  });

  test("the seed counts positions from the list's head: the index read last lies nearest it", async () => {
    const rels = await resolveInnodbRelations(c, [{ schema: 'lab', table: 'r' }]);
    const walk = await readPoolWalk(c, rels, undefined);
    assert.equal(walk.seed.headFirst, true);
    // Too few pages since the restart for an old sublist: each page read went to the head, the view numbers
    // them from the tail (its LRU_POSITION 0 leaves first).
    const index = rels.findIndex((r) => r.name === 'lab.r.k');
    const positions = (mine: boolean) => walk.seed.pages.filter(([i]) => (i === index) === mine).map(([, , pos]) => pos);
    const [indexPages, tablePages] = [positions(true), positions(false)];
    assert.ok(indexPages.length > 0 && tablePages.length > 0);
    assert.ok(
      Math.max(...indexPages) < Math.min(...tablePages),
      `index k at ${Math.max(...indexPages)} and nearer the head, the table from ${Math.min(...tablePages)}`,
    );
  });

  test("a table's long values are found by its tablespace, under its clustered index, apart from its residency", async () => {
    await c.query('CREATE TABLE b (id INT PRIMARY KEY, doc MEDIUMTEXT) ENGINE=InnoDB');
    // 12 kB each: stored off the row's page, a page each.
    await c.query('INSERT INTO b SELECT seq, REPEAT(MD5(seq), 375) FROM seq_1_to_50');
    const rels = await resolveInnodbRelations(c, [{ schema: 'lab', table: 'b' }]);
    const spaces = await readTableSpaces(c, rels, 'mariadb');
    assert.equal(spaces.size, 1);
    assert.deepEqual([...spaces.values()], ['`lab`.`b`']);
    const walk = await readPoolWalk(c, rels, undefined, 16_384, spaces);
    const [[{ n }]] = (await c.query(`SELECT COUNT(*) AS n FROM information_schema.INNODB_BUFFER_PAGE_LRU WHERE SPACE = ? AND PAGE_TYPE = 'BLOB'`, [
      [...spaces.keys()][0],
    ])) as unknown as [Array<{ n: number }>];
    assert.ok(Number(n) >= 50, `the premise: the inserted values' pages are cached (${n})`);
    assert.equal(walk.seed.longValues?.length, Number(n));
    const clustered = rels.findIndex((r) => r.kind === 'table');
    assert.ok(walk.seed.longValues!.every(([i]) => i === clustered));
    assert.equal(walk.residency.get('lab.b')!.cached, walk.seed.pages.length, 'the residency counts index pages only');
    assert.equal(
      walk.fills.get('lab.b')!.reduce((a, b) => a + b, 0),
      walk.seed.pages.length,
    );
  });

  test('with none of the statement pages cached, the list is still measured; without undo spaces none is read', async () => {
    const walk = await readPoolWalk(c, [], undefined);
    assert.ok(walk.seed.length > 0);
    assert.deepEqual(walk.seed.pages, []);
    assert.equal(walk.undoPages, undefined);
    assert.equal(walk.seed.longValues, undefined, 'no tablespaces given, none read');
  });
});
