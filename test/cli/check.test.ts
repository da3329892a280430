// bufferlens check against real private servers: budgets next to the SQL, a breach when an index is
// dropped, JUnit and JSON for CI, --update that round-trips, identical results on identical data, and the
// project's own budget files (test/fixtures/budgets), which a change in what BufferLens measures breaches.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { LocalPostgres } from '../../src/local-server/postgres';
import { LocalInnodbServer } from '../../src/local-server/mariadb';
import { embeddedPostgres, mariadb, need, skipUnless } from '../support/engines';
import { cli } from '../support/cli';
import { pgQuery } from '../support/sql';
import { writeIfUnchanged } from '../../src/cli/check';

const ORDERS_PG = [
  'CREATE EXTENSION pg_buffercache',
  'CREATE TABLE orders (id int PRIMARY KEY, customer int NOT NULL, amount int NOT NULL, pad text) WITH (autovacuum_enabled = off)',
  `INSERT INTO orders SELECT g, (g * 7919) % 2000, g % 97, repeat('o', 120) FROM generate_series(1, 60000) g`,
  'CREATE INDEX orders_customer ON orders (customer)',
  'VACUUM (FREEZE, ANALYZE) orders',
];

// `npm run budgets:update` rewrites the project's own budget files from what is measured now (a deliberate
// change); the tests then check them as CI does.
const UPDATE = process.env.BUFFERLENS_UPDATE_BUDGETS === '1';
function ownBudgets(url: string, file: string, margin: string) {
  if (UPDATE) assert.equal(cli('check', '--url', url, '--update', '--margin', margin, file).code, 0);
  return cli('check', '--url', url, file);
}

const json = (out: string) =>
  JSON.parse(out) as {
    exitCode: number;
    statements: Array<{ line: number; bounds: Array<{ budget: string; status: string; measured: number | null; reason?: string; updated?: string }> }>;
  };

describe('bufferlens check on PostgreSQL 18', skipUnless(embeddedPostgres()), () => {
  let server: LocalPostgres;
  let url: string;
  let dir: string;
  before(async () => {
    server = await LocalPostgres.start({ binaries: need(embeddedPostgres()), settings: { shared_buffers: '16MB', max_parallel_workers_per_gather: 0 } });
    url = server.url();
    for (const s of ORDERS_PG) await pgQuery(url, s);
    dir = mkdtempSync(join(tmpdir(), 'bufferlens-check-'));
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the project's own budgets hold (a change in what BufferLens measures breaches them)", () => {
    // Exact: on PostgreSQL 18 both warm logical reads and cold physical reads (after eviction) repeat.
    const r = ownBudgets(url, 'test/fixtures/budgets/postgres.sql', '0');
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /3 budgeted statements: 8 bounds within, 0 breached, 0 not checked/);
  });

  test('a Windows checkout (CRLF) is checked like the LF file; a named file with no budget fails instead of passing vacuously', () => {
    const lf = readFileSync('test/fixtures/budgets/postgres.sql', 'utf8');
    const crlf = join(dir, 'crlf.sql');
    writeFileSync(crlf, lf.replace(/\r?\n/g, '\r\n'));
    const r = cli('check', '--url', url, crlf);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /3 budgeted statements: 8 bounds within, 0 breached, 0 not checked/);
    const none = join(dir, 'none.sql');
    writeFileSync(none, 'SELECT 1;\r\n');
    const n = cli('check', '--url', url, none);
    assert.equal(n.code, 2, n.out + n.err);
    assert.match(n.out + n.err, /no budgeted statement in this file/);
  });

  test('--update round-trips, twice gives identical numbers, a dropped index breaches with JUnit, restoring it passes', () => {
    const file = join(dir, 'budgets.sql');
    writeFileSync(
      file,
      '-- bufferlens: budget logical(warm) <= 1, physical(cold) <= 1, physical(warm) <= 0\nSELECT count(*) FROM orders WHERE customer = 77;\n',
    );
    const updated = cli('check', '--url', url, '--update', '--margin', '0', '--json', file);
    assert.equal(updated.code, 0, updated.out + updated.err);
    const rewritten = readFileSync(file, 'utf8');
    assert.notEqual(rewritten.split('\n')[0], '-- bufferlens: budget logical(warm) <= 1, physical(cold) <= 1, physical(warm) <= 0');
    assert.match(rewritten, /^-- bufferlens: budget logical\(warm\) <= \d+, physical\(cold\) <= \d+, physical\(warm\) <= 0\nSELECT count/);
    const first = json(cli('check', '--url', url, '--json', file).out);
    const second = json(cli('check', '--url', url, '--json', file).out);
    assert.equal(first.exitCode, 0);
    assert.deepEqual(
      second.statements[0].bounds.map((b) => b.measured),
      first.statements[0].bounds.map((b) => b.measured),
      'logical(warm) and physical(cold, evicted on 18) are deterministic',
    );

    const junit = join(dir, 'junit.xml');
    return (async () => {
      await pgQuery(url, 'DROP INDEX orders_customer');
      const broken = cli('check', '--url', url, '--junit', junit, file);
      assert.equal(broken.code, 1, broken.out + broken.err);
      assert.match(broken.out, /BREACH/);
      const xml = readFileSync(junit, 'utf8');
      assert.match(xml, /<testsuite name="bufferlens check" tests="1" failures="1" errors="0">/);
      assert.match(xml, /<failure message="logical\(warm\) [\d,]+, budget logical\(warm\) &#60;= \d+/);
      await pgQuery(url, 'CREATE INDEX orders_customer ON orders (customer)');
      await pgQuery(url, 'VACUUM (ANALYZE) orders');
      const fixed = cli('check', '--url', url, '--junit', junit, file);
      assert.equal(fixed.code, 0, fixed.out + fixed.err);
      assert.match(readFileSync(junit, 'utf8'), /failures="0" errors="0"/);
    })();
  });

  test('what PostgreSQL cannot tell is refused with the reason and fails the check (exit 2)', () => {
    const file = join(dir, 'refused.sql');
    writeFileSync(file, '-- bufferlens: budget read-ahead(cold) <= 0, physical <= 10\nSELECT sum(amount) FROM orders;\n');
    const r = json(cli('check', '--url', url, '--json', file).out);
    assert.equal(r.exitCode, 2);
    assert.deepEqual(
      r.statements[0].bounds.map((b) => b.status),
      ['refused', 'refused'],
    );
    assert.match(r.statements[0].bounds[0].reason!, /does not report read-ahead reads/);
    assert.match(r.statements[0].bounds[1].reason!, /write physical\(warm\) or physical\(cold\)/);
  });

  test('a budgets file for statements kept elsewhere, and budgets that do not parse', () => {
    const file = join(dir, 'budgets.json');
    writeFileSync(
      file,
      JSON.stringify({ budgets: [{ name: 'orders of one customer', sql: 'SELECT count(*) FROM orders WHERE customer = 5', budget: 'logical(warm) <= 1' }] }),
    );
    const breach = cli('check', '--url', url, '--budgets', file);
    assert.equal(breach.code, 1);
    assert.match(breach.out, /budgets\.json:1 \(orders of one customer\)/);
    assert.equal(cli('check', '--url', url, '--budgets', file, '--update').code, 0);
    assert.match(JSON.parse(readFileSync(file, 'utf8')).budgets[0].budget, /^logical\(warm\) <= \d+$/);
    assert.equal(cli('check', '--url', url, '--budgets', file).code, 0);
    const bad = join(dir, 'bad.sql');
    writeFileSync(bad, '-- bufferlens: budget logical <== 3\nSELECT 1;\n');
    const r = cli('check', '--url', url, bad);
    assert.equal(r.code, 2);
    assert.match(r.out, /error: the budget above it: "logical <== 3" is not a bound/);
    // A breach beside a statement that failed: no verdict, exit 2 (the help's rule), with the breach shown.
    const mixed = join(dir, 'mixed.json');
    writeFileSync(
      mixed,
      JSON.stringify({
        budgets: [
          { sql: 'SELECT count(*) FROM orders WHERE customer = 5', budget: 'logical(warm) <= 1' },
          { sql: 'SELECT no_such_column FROM orders', budget: 'logical(warm) <= 1' },
        ],
      }),
    );
    const m = cli('check', '--url', url, '--budgets', mixed);
    assert.equal(m.code, 2, m.out + m.err);
    assert.match(m.out, /BREACH/);
  });
});

describe('bufferlens check on MariaDB', skipUnless(mariadb()), () => {
  let server: LocalInnodbServer;
  let url: string;
  let dir: string;
  before(async () => {
    server = await LocalInnodbServer.start({ binaries: need(mariadb()), settings: { 'innodb-buffer-pool-size': '64M' } });
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    await c.query('CREATE DATABASE lab');
    await c.query('USE lab');
    await c.query(
      'CREATE TABLE orders (id INT PRIMARY KEY, customer INT NOT NULL, amount INT NOT NULL, pad VARCHAR(200) NOT NULL, KEY customer (customer)) ENGINE=InnoDB',
    );
    await c.query(`INSERT INTO orders SELECT seq, (seq * 7919) % 2000, seq % 97, REPEAT('o', 120) FROM seq_1_to_60000`);
    await c.query('ANALYZE TABLE orders');
    await c.end();
    url = server.url('lab');
    dir = mkdtempSync(join(tmpdir(), 'bufferlens-check-'));
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the project's own budgets hold on the harness MariaDB", () => {
    // InnoDB's counters are global: a few percent for what else the server does while measuring.
    const r = ownBudgets(url, 'test/fixtures/budgets/mariadb.sql', '5');
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /2 budgeted statements: 4 bounds within, 0 breached, 0 not checked/);
  });

  test('a cold bound on a server that was not restarted is refused; after a restart run 1 is cold and it is checked', async () => {
    const file = join(dir, 'cold.sql');
    copyFileSync('test/fixtures/budgets/mariadb.sql', file);
    writeFileSync(file, '-- bufferlens: budget physical(cold) <= 1000\nSELECT pad FROM orders WHERE id = 4242;\n');
    const warm = json(cli('check', '--url', url, '--json', file).out);
    assert.equal(warm.exitCode, 2);
    assert.match(warm.statements[0].bounds[0].reason!, /InnoDB cannot evict one table; check cold bounds right after a restart/);
    await server.restart();
    const cold = json(cli('check', '--url', url, '--json', file).out);
    assert.equal(cold.exitCode, 0, JSON.stringify(cold));
    assert.ok(cold.statements[0].bounds[0].measured! > 0, 'run 1 read the pages it needed from disk');
  });
});

test('--update writes only a file that did not change while it was measured, through a rename that leaves no temporary file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bufferlens-update-'));
  try {
    const file = join(dir, 'q.sql');
    writeFileSync(file, 'as read');
    assert.equal(writeIfUnchanged(file, 'as read', 'updated'), undefined);
    assert.equal(readFileSync(file, 'utf8'), 'updated');
    // An edit made meanwhile: refused with the reason, and the edit stays.
    writeFileSync(file, 'edited by the user');
    assert.match(writeIfUnchanged(file, 'updated', 'newer bounds') ?? '', /the file changed while its statements were measured/);
    assert.equal(readFileSync(file, 'utf8'), 'edited by the user');
    assert.deepEqual(readdirSync(dir), ['q.sql']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
