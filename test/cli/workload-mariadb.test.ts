// `bufferlens workload` on a private MariaDB: a mix predicted and run, the run's writes rolled back, and
// a write a rollback could not undo (a MyISAM table, a trigger) refused before anything is sent.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createConnection } from 'mysql2/promise';
import { LocalInnodbServer } from '../../src/local-server/mariadb';
import { mariadb, need, skipUnless } from '../support/engines';
import { cli, cliAsync } from '../support/cli';
import { waitUntil } from '../support/wait';
import type { WorkloadReport } from '../../src/shared/workload-report';

const availability = mariadb();

describe('bufferlens workload on MariaDB', skipUnless(availability), () => {
  let server: LocalInnodbServer;
  let dir: string;
  const sql = async (...qs: string[]) => {
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root', database: 'w' });
    try {
      const out = [];
      for (const q of qs) out.push((await c.query(q))[0]);
      return out;
    } finally {
      await c.end();
    }
  };

  before(async () => {
    server = await LocalInnodbServer.start({ binaries: need(availability), settings: { 'innodb-buffer-pool-size': '16M' } });
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    await c.query('CREATE DATABASE w');
    await c.end();
    await sql(
      "CREATE TABLE acct (id INT PRIMARY KEY, v INT NOT NULL, pad CHAR(100) NOT NULL DEFAULT '') ENGINE=InnoDB",
      'INSERT INTO acct (id, v) SELECT seq, 0 FROM seq_1_to_100000',
      'CREATE TABLE legacy (id INT PRIMARY KEY, v INT) ENGINE=MyISAM',
      'INSERT INTO legacy VALUES (1, 0)',
      'ANALYZE TABLE acct, legacy',
    );
    dir = mkdtempSync(join(tmpdir(), 'bufferlens-workload-mariadb-'));
  });
  after(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a read and write mix: predicted and run, every write rolled back, the measured point beside the prediction', async () => {
    const mix = join(dir, 'mix.sql');
    writeFileSync(
      mix,
      '\\set id random(1, 100000)\n-- bufferlens: weight 9\nSELECT v FROM acct WHERE id = :id;\n-- bufferlens: weight 1\nUPDATE acct SET v = v + 1 WHERE id = :id;\n',
    );
    const r = cli('workload', 'run', '--url', server.url('w'), mix, '--sessions', '2', '--warmup-transactions', '5000', '--transactions', '5000', '--json');
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out) as WorkloadReport;
    assert.equal(report.engine, 'innodb');
    assert.equal(report.measured!.committed, false);
    assert.equal(report.measured!.errors, 0);
    const now = report.curve.find((p) => p.current)!;
    assert.ok(now.statements.every((s) => s !== null && s.requestsPerExecution >= 2));
    // Every UPDATE was rolled back.
    const [[row]] = (await sql('SELECT SUM(v) AS s FROM acct')) as Array<Array<{ s: string }>>;
    assert.equal(Number(row.s), 0);
    // The measured requests per transaction are the model's within a fifth (reads: 3 a lookup; the update's undo and leaf).
    const measured = report.measured!.requests / report.measured!.transactions;
    assert.ok(
      Math.abs(measured - now.requestsPerTransaction) / measured < 0.2,
      `${measured} measured, ${now.requestsPerTransaction} predicted: ${JSON.stringify(now.statements)}`,
    );
  });

  test("sysbench's write statements, committed: the changed secondary entries, leaf splits and purge's requests are the server's within 15 %", async () => {
    // A secondary index built by sorting (full leaves), as sysbench's k_1; the table is this test's alone.
    await sql(
      "CREATE TABLE sbw (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '') ENGINE=InnoDB",
      "INSERT INTO sbw (k, c, pad) SELECT 1 + (seq * 7919) % 40000, CONCAT(seq, '-c'), 'p' FROM seq_1_to_40000",
      'CREATE INDEX k_1 ON sbw (k)',
      'ANALYZE TABLE sbw',
    );
    const file = join(dir, 'oltp-write-only.sql');
    writeFileSync(
      file,
      [
        'BEGIN;',
        '\\set u random(1, 40000)',
        'UPDATE sbw SET k = k + 1 WHERE id = :u;',
        '\\set d random(1, 40000)',
        '\\set k random(1, 40000)',
        'DELETE FROM sbw WHERE id = :d;',
        "INSERT INTO sbw (id, k, c, pad) VALUES (:d, :k, 'c', 'p');",
        'COMMIT;',
        '',
      ].join('\n'),
    );
    const r = cli('workload', 'predict', '--url', server.url('w'), file, '--warmup-transactions', '3000', '--transactions', '3000', '--json');
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out) as WorkloadReport;
    assert.ok(
      report.notes.some((n) => /Purge reaches/.test(n)),
      report.notes.join('\n'),
    );
    const predicted = report.curve.find((p) => p.current)!.requestsPerTransaction;
    // The same transactions, committed, on random rows. Purge is background work whose progress depends on the
    // machine's load: the server's counters are read once it has caught up (the history list empty), so they
    // hold all of it (read right after the run, a loaded machine counted 37.2 where an idle one counted 51.9).
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root', database: 'w' });
    const status = async (name: string) => {
      const [rows] = await c.query(`SHOW GLOBAL STATUS LIKE '${name}'`);
      return Number((rows as Array<{ Value: string }>)[0].Value);
    };
    const drained = async () => assert.ok(await waitUntil(async () => (await status('Innodb_history_list_length')) === 0, 600), 'purge caught up');
    let seed = 4242;
    const next = () => 1 + ((seed = (seed * 48271) % 2147483647) % 40000);
    const transactions = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const [u, d, k] = [next(), next(), next()];
        await c.query('BEGIN');
        await c.query('UPDATE sbw SET k = k + 1 WHERE id = ?', [u]);
        await c.query('DELETE FROM sbw WHERE id = ?', [d]);
        await c.query("INSERT INTO sbw (id, k, c, pad) VALUES (?, ?, 'c', 'p')", [d, k]);
        await c.query('COMMIT');
      }
    };
    let measured: number;
    try {
      await transactions(3000);
      await drained();
      const before = await status('Innodb_buffer_pool_read_requests');
      await transactions(3000);
      await drained();
      measured = ((await status('Innodb_buffer_pool_read_requests')) - before) / 3000;
    } finally {
      await c.end();
    }
    // Per transaction: the three rows' searches, undo records and secondary entries, the splits of full leaves,
    // and purge's work with its merge attempts (measured 44.7, 45.7 and 52.8 on different runs of this test, idle,
    // loaded and in a fresh-clone CI run: how much purge searches again varies by an eighth; 47 predicted). Without
    // secondary entries and purge the model said 29, which this tolerance still refuses.
    assert.ok(Math.abs(measured - predicted) / measured < 0.15, `${measured.toFixed(1)} measured, ${predicted.toFixed(1)} predicted`);
    console.log(`# write mix: ${measured.toFixed(1)} gets per transaction measured, ${predicted.toFixed(1)} predicted`);
  });

  test("sysbench's read-only statement shapes are predicted as measure handles them: point, ranges, SUM, ORDER BY and DISTINCT", async () => {
    await sql(
      "CREATE TABLE sbtest1 (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', KEY k_1 (k)) ENGINE=InnoDB",
      "INSERT INTO sbtest1 (k, c, pad) SELECT 1 + (seq * 7919) % 20000, CONCAT(seq, '-c'), 'p' FROM seq_1_to_20000",
      'ANALYZE TABLE sbtest1',
    );
    const shapes = [
      'SELECT c FROM sbtest1 WHERE id = :a',
      'SELECT c FROM sbtest1 WHERE id BETWEEN :a AND :b',
      'SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN :a AND :b',
      'SELECT c FROM sbtest1 WHERE id BETWEEN :a AND :b ORDER BY c',
      'SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN :a AND :b ORDER BY c',
    ];
    const file = join(dir, 'oltp-read-only.sql');
    writeFileSync(file, `\\set a random(1, 19900)\n\\set b :a + 99\n${shapes.map((q) => `${q};`).join('\n')}\n`);
    const r = cli('workload', 'predict', '--url', server.url('w'), file, '--transactions', '500', '--json');
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out) as WorkloadReport;
    const now = report.curve.find((p) => p.current)!;
    assert.equal(now.statements.length, shapes.length);
    // A 100-row range reads more than a point lookup, and every shape is modelled: a number, never a silent 0.
    const [point, ...ranges] = now.statements.map((s) => s?.requestsPerExecution ?? null);
    assert.ok(point !== null && point >= 2, `point lookup: ${point}`);
    for (const [k, x] of ranges.entries()) assert.ok(x !== null && x > point, `${shapes[k + 1]}: ${x} requests, point ${point}`);
  });

  test("measure's gate before anything runs: a global setting changed through a procedure, a file written through an executable comment", async () => {
    await sql(
      'CREATE PROCEDURE p_global() BEGIN SET GLOBAL max_connections = 66; END',
      'CREATE FUNCTION calls_p(x INT) RETURNS INT BEGIN CALL p_global(); RETURN x; END',
    );
    const [[before]] = (await sql('SELECT @@GLOBAL.max_connections AS v')) as Array<Array<{ v: number }>>;
    const outfile = `/tmp/bl-workload-outfile-${process.pid}-${Date.now()}`;
    const cases: Array<[string, RegExp]> = [
      ['SELECT calls_p(v) FROM acct WHERE id = :id;', /gate\.sql:2: refused: w\.p_global changes a global setting/],
      [`SELECT v FROM acct WHERE id = :id /*M! INTO OUTFILE '${outfile}' */;`, /gate\.sql:2: .*INTO OUTFILE\/DUMPFILE writes a file/],
    ];
    for (const [statement, refusal] of cases) {
      const file = join(dir, 'gate.sql');
      writeFileSync(file, `\\set id random(1, 100000)\n${statement}\n`);
      const r = cli('workload', 'run', '--url', server.url('w'), file, '--transactions', '5', '--warmup-transactions', '0');
      assert.equal(r.code, 2, `${statement}: ${r.err}`);
      assert.match(r.err, refusal);
    }
    const [[after]] = (await sql('SELECT @@GLOBAL.max_connections AS v')) as Array<Array<{ v: number }>>;
    assert.equal(after.v, before.v);
    assert.ok(!existsSync(outfile));
  });

  test('SIGTERM stops the statements running now and ends the run within seconds, not after them; nothing is left running', async () => {
    const file = join(dir, 'slow.sql');
    writeFileSync(file, 'SELECT SLEEP(20), COUNT(*) FROM acct WHERE id = 1;\n');
    const { child, done } = cliAsync(['workload', 'run', '--url', server.url('w'), file, '--sessions', '2', '--warmup', '0', '--duration', '60']);
    // Ready once both sessions sleep on the server: polled, never a fixed wait.
    const sleeping = async () =>
      Number(
        (
          (await sql("SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(20)%' AND COMMAND = 'Query'"))[0] as Array<{
            n: number;
          }>
        )[0].n,
      ) >= 2;
    assert.ok(await waitUntil(sleeping, 300, 100), 'the sessions never started');
    const sent = Date.now();
    child.kill('SIGTERM');
    const r = await done;
    const took = Date.now() - sent;
    assert.ok(took < 3000, `ended ${took} ms after the signal`);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /cancelled/);
    assert.ok(await waitUntil(async () => !(await sleeping()), 50, 100), 'a statement was left running');
  });

  test("a write reaching a MyISAM table, directly or through a trigger, is refused in measure's words; a trigger writing InnoDB runs, rolled back", async () => {
    const myisam = join(dir, 'myisam.sql');
    writeFileSync(myisam, 'UPDATE legacy SET v = v + 1 WHERE id = 1;\n');
    const r = cli('workload', 'run', '--url', server.url('w'), myisam, '--transactions', '10');
    assert.equal(r.code, 2);
    assert.match(r.err, /myisam.sql:1: w\.legacy uses the MyISAM engine, which is not transactional: .*--commit/);
    await sql('CREATE TRIGGER acct_audit AFTER UPDATE ON acct FOR EACH ROW UPDATE legacy SET v = v + 1 WHERE id = 1');
    try {
      const trig = join(dir, 'trigger.sql');
      writeFileSync(trig, 'UPDATE acct SET v = v + 1 WHERE id = 7;\n');
      const t = cli('workload', 'run', '--url', server.url('w'), trig, '--transactions', '10');
      assert.equal(t.code, 2);
      assert.match(t.err, /trigger.sql:1: w\.legacy uses the MyISAM engine, which is not transactional/);
    } finally {
      await sql('DROP TRIGGER acct_audit');
    }
    // The gate follows the trigger instead of refusing every trigger: one that writes InnoDB is rolled back.
    await sql('CREATE TABLE audit_log (id INT AUTO_INCREMENT PRIMARY KEY, acct INT) ENGINE=InnoDB');
    await sql('CREATE TRIGGER acct_log AFTER UPDATE ON acct FOR EACH ROW INSERT INTO audit_log (acct) VALUES (NEW.id)');
    try {
      const trig = join(dir, 'trigger-innodb.sql');
      writeFileSync(trig, 'UPDATE acct SET v = v + 1 WHERE id = 7;\n');
      const t = cli('workload', 'run', '--url', server.url('w'), trig, '--transactions', '10', '--warmup-transactions', '0');
      assert.equal(t.code, 0, t.err);
      const [[logged]] = (await sql('SELECT COUNT(*) AS n FROM audit_log')) as Array<Array<{ n: number }>>;
      assert.equal(Number(logged.n), 0);
    } finally {
      await sql('DROP TRIGGER acct_log', 'DROP TABLE audit_log');
    }
    const [[row]] = (await sql('SELECT v FROM legacy WHERE id = 1')) as Array<Array<{ v: number }>>;
    assert.equal(row.v, 0);
  });
});

describe('bufferlens workload from-stats on MariaDB', skipUnless(availability), () => {
  test("the server's statement digests by calls become a weighted workload, each placeholder over its indexed column's range", async () => {
    const server = await LocalInnodbServer.start({ binaries: need(availability), settings: { 'innodb-buffer-pool-size': '16M', 'performance-schema': 'ON' } });
    const dir = mkdtempSync(join(tmpdir(), 'bufferlens-from-stats-mariadb-'));
    try {
      const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
      await c.query('CREATE DATABASE w');
      await c.query('USE w');
      await c.query("CREATE TABLE acct (id INT PRIMARY KEY, v INT NOT NULL, pad CHAR(100) NOT NULL DEFAULT '') ENGINE=InnoDB");
      await c.query('INSERT INTO acct (id, v) SELECT seq, 0 FROM seq_1_to_50000');
      for (let i = 0; i < 300; i++) await c.query(`SELECT v FROM acct WHERE id = ${1 + ((i * 7919) % 50000)}`);
      for (let i = 0; i < 100; i++) await c.query(`UPDATE acct SET v = v + 1 WHERE id = ${1 + ((i * 104729) % 50000)}`);
      for (let i = 0; i < 20; i++) await c.query("SELECT COUNT(*) FROM acct WHERE pad = 'x'");
      await c.end();
      const file = join(dir, 'from-stats.sql');
      const r = cli('workload', 'from-stats', '--url', server.url('w'), '--top', '5', '--out', file);
      assert.equal(r.code, 0, r.err);
      const text = readFileSync(file, 'utf8');
      assert.match(text, /performance_schema\.events_statements_summary_by_digest/);
      assert.match(text, /\\set \w+ random\(1, 50000\)/);
      // Weighted by calls: 300 selects against 100 updates.
      assert.match(text, /-- bufferlens: weight 300\n\\set (\w+) random\(1, 50000\)\nSELECT `?v`? FROM `?acct`? WHERE `?id`? = :\1;/i);
      // The value an UPDATE writes decides no page: a constant, said so; its key is drawn.
      assert.match(
        text,
        /-- bufferlens: weight 100\n-- :(\w+): a value written, which decides no page \(set to 1\)\n\\set \1 1\n\\set (\w+) random\(1, 50000\)\nUPDATE `?acct`? SET `?v`? = `?v`? \+ :\1 WHERE `?id`? = :\2;/i,
      );
      // A filter on a column with no index cannot be drawn: left out with the reason.
      assert.match(text, /left out \([^)]*\): SELECT COUNT/i);
      // The file is a workload the predictor takes.
      const p = cli('workload', 'predict', '--url', server.url('w'), file, '--json');
      assert.equal(p.code, 0, p.err);
      assert.ok((JSON.parse(p.out) as WorkloadReport).curve.length >= 4);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
