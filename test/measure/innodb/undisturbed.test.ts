// Measuring must not disturb what it measures: after a restart nothing BufferLens sends before run 1
// touches the statement's pages, so run 1 is cold. And the plans' aliases and early stops are read as the
// server executed them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection } from 'mysql2/promise';
import { LocalInnodbServer } from '../../../src/local-server/mariadb';
import { mariadb, need, skipUnless } from '../../support/engines';
import { measure } from '../../../src/measure/measure';
import { parseConnectionUrl } from '../../../src/db/connection-url';

const availability = mariadb();

describe('MariaDB: measuring does not disturb the pool', skipUnless(availability), () => {
  let server: LocalInnodbServer;
  let url: string;
  const run = (sql: string, runs = 2) =>
    measure(parseConnectionUrl(url), { sql, runs, cold: 'no', commit: false, timing: false, timeoutMs: 30_000, whatIf: false });
  const cachedPages = async () => {
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    try {
      const [rows] = await c.query(`SELECT COUNT(*) AS n FROM information_schema.INNODB_BUFFER_PAGE_LRU WHERE TABLE_NAME = '\`lab\`.\`r\`'`);
      return Number((rows as Array<{ n: number }>)[0].n);
    } finally {
      await c.end();
    }
  };

  before(async () => {
    server = await LocalInnodbServer.start({ binaries: need(availability), settings: { 'innodb-buffer-pool-size': '128M' } });
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    for (const s of [
      'CREATE DATABASE lab',
      'USE lab',
      'CREATE TABLE r (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(200) NOT NULL, KEY k (k)) ENGINE=InnoDB',
      `INSERT INTO r SELECT seq, FLOOR(RAND(3) * 100000), REPEAT('r', 200) FROM seq_1_to_100000`,
      'CREATE TABLE s (id INT PRIMARY KEY, rid INT NOT NULL) ENGINE=InnoDB',
      'INSERT INTO s SELECT seq, FLOOR(RAND(5) * 100000) + 1 FROM seq_1_to_2000',
      'ANALYZE TABLE r, s',
    ]) {
      await c.query(s);
    }
    await c.end();
    url = server.url('lab');
  });
  after(async () => server?.stop());

  for (const statement of ['SELECT pad FROM r WHERE id = 777', 'SELECT SUM(LENGTH(pad)) FROM r WHERE id BETWEEN 1000 AND 1200']) {
    test(`after a restart, run 1 is cold: nothing before it touched the pages (${statement})`, async () => {
      await server.restart({ 'innodb-buffer-pool-load-at-startup': 'OFF' });
      // What the server itself loaded at start-up (an index root page, when it opens a table).
      const serversOwn = await cachedPages();
      const report = await run(statement);
      assert.equal(report.runs[0].cold, true, report.warnings.join('\n'));
      const before = report.runs[0].residency.reduce((a, rel) => a + (rel.cachedBefore ?? NaN), 0);
      assert.equal(before, serversOwn, 'BufferLens touched nothing before run 1');
      for (const rel of report.runs[0].residency) assert.ok(rel.cachedBefore! <= 1, rel.relation);
      assert.ok(report.runs[0].measured.physicalReads! > 0, 'run 1 read its pages itself');
      assert.ok(!report.warnings.some((w) => /not cold/.test(w)), report.warnings.join('\n'));
    });
  }

  test('aliased tables are resolved: residency and a prediction for both, nothing blamed on statistics', async () => {
    await server.restart({ 'innodb-buffer-pool-load-at-startup': 'OFF' });
    const report = await run('SELECT SUM(LENGTH(b.pad)) FROM s AS a JOIN r b ON b.id = a.rid');
    const names = report.runs[0].residency.map((r) => r.relation);
    assert.ok(names.includes('lab.r') && names.includes('lab.s'), names.join(', '));
    assert.ok(!(report.runs[0].prediction?.unmodelled ?? []).some((u) => /statistics/.test(u)), (report.runs[0].prediction?.unmodelled ?? []).join('\n'));
    const m = report.runs[0].measured.physicalReads! + report.runs[0].measured.readAhead!;
    const p = report.runs[0].predicted.physicalReads! + report.runs[0].predicted.readAhead!;
    assert.ok(Math.abs(p - m) / m < 0.15, `pages read: measured ${m}, predicted ${p}`);
  });

  test('a scan stopped by LIMIT is predicted to where it stopped, not to the end of the table', async () => {
    await server.restart({ 'innodb-buffer-pool-load-at-startup': 'OFF' });
    const report = await run('SELECT pad FROM r LIMIT 2000');
    const m = report.runs[0].measured.physicalReads! + report.runs[0].measured.readAhead!;
    const p = report.runs[0].predicted.physicalReads! + report.runs[0].predicted.readAhead!;
    const leaves = report.runs[0].residency.find((r) => r.relation === 'lab.r')!.pages;
    assert.ok(m < leaves / 4, `a LIMIT read ${m} of ${leaves} pages`);
    assert.ok(Math.abs(p - m) / m < 0.35, `pages read: measured ${m}, predicted ${p}`);
    assert.ok((report.runs[0].prediction?.assumptions ?? []).some((a) => /stopped after 2,000 rows/.test(a)));
  });

  test("a join whose lookups follow the driving table's key order walks consecutive leaves, not random ones", async () => {
    await createTablesAB();
    for (const sql of [
      'SELECT SUM(LENGTH(y.pad)) FROM a x JOIN b y ON y.id = x.id WHERE x.k BETWEEN 1000 AND 3000',
      'SELECT SUM(LENGTH(b.pad)) FROM a STRAIGHT_JOIN b ON b.id = a.id WHERE a.id BETWEEN 1000 AND 3000',
    ]) {
      await server.restart({ 'innodb-buffer-pool-load-at-startup': 'OFF' });
      const report = await run(sql, 1);
      const r = report.runs[0];
      // Before, each of the 2,001 lookups went to a random leaf: 1,182 and 1,118 reads against 129 and 65.
      const m = r.measured.physicalReads! + r.measured.readAhead!;
      const p = r.predicted.physicalReads! + r.predicted.readAhead!;
      assert.ok(Math.abs(p - m) / m <= 0.05, `${sql}: pages read ${m}, predicted ${p}`);
      assert.ok((r.prediction?.assumptions ?? []).some((x) => /keys in ascending order|leaf placed by its key/.test(x)));
    }
  });

  async function createTablesAB(): Promise<void> {
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root', database: 'lab' });
    try {
      for (const s of [
        'CREATE TABLE a (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(200) NOT NULL) ENGINE=InnoDB',
        `INSERT INTO a SELECT seq, seq, REPEAT('a', 200) FROM seq_1_to_100000`,
        'CREATE TABLE b (id INT PRIMARY KEY, pad VARCHAR(200) NOT NULL) ENGINE=InnoDB',
        `INSERT INTO b SELECT seq, REPEAT('b', 200) FROM seq_1_to_100000`,
        'ANALYZE TABLE a, b',
      ]) {
        await c.query(s);
      }
    } finally {
      await c.end();
    }
  }
});
