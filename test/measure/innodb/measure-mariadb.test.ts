// MariaDB measurement against a real private server: the seed 001 experiment, the documented mapping,
// calibration, noise detection, safety and failures.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection, type Connection } from 'mysql2/promise';
import { LocalInnodbServer } from '../../../src/local-server/mariadb';
import { mariadb, need, skipUnless } from '../../support/engines';
import { cli, cliAsync, interruptWhenActive, measureJson } from '../../support/cli';
import { validateReport } from '../../support/report-schema';
import { waitUntil } from '../../support/wait';

const availability = mariadb();
const STATEMENT = 'SELECT SUM(amount), SUM(OCTET_LENGTH(payload)) FROM t';

describe('MariaDB measurement', skipUnless(availability), () => {
  let server: LocalInnodbServer;
  let url: string;
  const connect = async (): Promise<Connection> => {
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root', database: 'lab' });
    return c;
  };
  const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> => {
    const c = await connect();
    try {
      return (await c.query(text, values))[0] as T[];
    } finally {
      await c.end();
    }
  };
  const checksum = async () => (await q<{ h: string }>(`SELECT CONCAT(COUNT(*), ':', COALESCE(SUM(CRC32(CONCAT(id, ':', v))), 0)) AS h FROM acct`))[0].h;
  const leftovers = async () =>
    (await q<{ n: number }>(`SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND USER = 'root'`))[0].n;

  before(async () => {
    // The seed 001 set-up: 100,000 rows with a 500-byte payload (≈ 3,574 leaf pages) in a 128 MB pool.
    server = await LocalInnodbServer.start({ binaries: need(availability), settings: { 'innodb-buffer-pool-size': '128M' } });
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    await c.query('CREATE DATABASE lab');
    await c.query('USE lab');
    await c.query('CREATE TABLE t (id INT PRIMARY KEY, amount INT NOT NULL, payload VARCHAR(500) NOT NULL) ENGINE=InnoDB');
    await c.query(`INSERT INTO t SELECT seq, seq % 1000, REPEAT('x', 500) FROM seq_1_to_100000`);
    await c.query('CREATE TABLE other (id INT PRIMARY KEY, pad VARCHAR(500)) ENGINE=InnoDB');
    await c.query(`INSERT INTO other SELECT seq, REPEAT('y', 400) FROM seq_1_to_40000`);
    await c.query('CREATE TABLE acct (id INT PRIMARY KEY, v INT NOT NULL, KEY v (v)) ENGINE=InnoDB');
    await c.query('INSERT INTO acct SELECT seq, seq * 10 FROM seq_1_to_3000');
    await c.query('CREATE TABLE legacy (id INT PRIMARY KEY, v INT) ENGINE=MyISAM');
    await c.query('INSERT INTO legacy SELECT seq, seq FROM seq_1_to_100');
    await c.query(`CREATE USER 'tester'@'127.0.0.1' IDENTIFIED BY 'right-password'`);
    await c.query(`GRANT ALL ON *.* TO 'tester'@'127.0.0.1'`);
    await c.query('ANALYZE TABLE t, other, acct');
    await c.end();
    url = server.url('lab');
  });
  after(async () => server?.stop());

  test('seed 001 on a cold pool: run 1 reads and reads ahead, runs 2–3 read nothing', async () => {
    await server.restart();
    const report = measureJson(url, STATEMENT, '--runs', '3');
    assert.deepEqual(validateReport(report), []);
    assert.equal(report.engine.product, 'mariadb');
    assert.equal(report.engine.pageSize, 16384);
    const [r1, r2, r3] = report.runs;
    assert.ok(r1.measured.physicalReads > 0 && r1.measured.physicalReads < 200, `run 1 synchronous reads: ${r1.measured.physicalReads}`);
    assert.ok(r1.measured.readAhead > 3000, `run 1 read-ahead: ${r1.measured.readAhead}`);
    for (const r of [r2, r3]) {
      assert.equal(r.measured.physicalReads, 0);
      assert.equal(r.measured.readAhead, 0);
      assert.equal(r.measured.logicalReads, r2.measured.logicalReads);
    }
    const leaf = r2.measured.logicalReads;
    assert.ok(leaf > 3400 && leaf < 3800, `a warm scan requests each leaf page once: ${leaf}`);
    // The documented mapping, checked against the raw deltas the report carries.
    const raw = r1.raw;
    assert.equal(r1.measured.physicalReads, raw.Innodb_buffer_pool_reads - raw.Innodb_buffer_pool_read_ahead - raw.Innodb_buffer_pool_read_ahead_rnd);
    assert.equal(r1.measured.readAhead, raw.Innodb_buffer_pool_read_ahead + raw.Innodb_buffer_pool_read_ahead_rnd);
    assert.equal(raw.Innodb_buffer_pool_reads, raw.Innodb_pages_read, 'on MariaDB _reads counts every page read');
    // r_engine_stats agrees: on a warm run the statement's own pages equal the global requests.
    assert.equal(r2.raw['r_engine_stats.t.pages_accessed'], r2.measured.logicalReads);
    // Beside it, per run, the table's predicted pages: what the plan view sets beside the engine's count.
    for (const r of report.runs) {
      const engine = r.raw['r_engine_stats.t.pages_accessed'];
      const predicted = r.predictedTables?.t?.pages;
      assert.ok(Math.abs(predicted - engine) <= 0.05 * engine, `run ${r.run}: predicted ${predicted}, the engine counted ${engine}`);
    }
    // Residency: the whole table is cached after run 1.
    const t = r1.residency.find((x: { relation: string }) => x.relation === 'lab.t');
    assert.ok(t.cachedAfter >= leaf, `cached after run 1: ${t.cachedAfter}`);
    assert.equal(report.warnings.filter((w: string) => /something else|other sessions/.test(w)).length, 0, report.warnings.join('\n'));
  });

  test("the tool's numbers equal a by-hand counter snapshot on an identical cold run", async () => {
    await server.restart();
    const c = await connect();
    const names = `('INNODB_BUFFER_POOL_READS', 'INNODB_BUFFER_POOL_READ_AHEAD')`;
    const snap = async () =>
      Object.fromEntries(
        (
          (await c.query(`SELECT VARIABLE_NAME AS n, VARIABLE_VALUE AS v FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN ${names}`))[0] as Array<{
            n: string;
            v: string;
          }>
        ).map((r) => [r.n, Number(r.v)]),
      );
    const b = await snap();
    await c.query(STATEMENT);
    const a = await snap();
    await c.end();
    const byHand = {
      readAhead: a.INNODB_BUFFER_POOL_READ_AHEAD - b.INNODB_BUFFER_POOL_READ_AHEAD,
      physical: a.INNODB_BUFFER_POOL_READS - b.INNODB_BUFFER_POOL_READS - (a.INNODB_BUFFER_POOL_READ_AHEAD - b.INNODB_BUFFER_POOL_READ_AHEAD),
    };
    await server.restart();
    const report = measureJson(url, STATEMENT, '--runs', '1');
    assert.equal(report.runs[0].measured.readAhead, byHand.readAhead);
    assert.ok(
      Math.abs(report.runs[0].measured.physicalReads - byHand.physical) <= 2,
      `tool ${report.runs[0].measured.physicalReads} vs by hand ${byHand.physical}`,
    );
  });

  test('with innodb_read_ahead_threshold=0 there is no read-ahead and every page is a synchronous read', async () => {
    await server.restart({ 'innodb-read-ahead-threshold': 0 });
    try {
      const report = measureJson(url, STATEMENT, '--runs', '1');
      const r = report.runs[0];
      assert.equal(r.measured.readAhead, 0);
      assert.ok(r.measured.physicalReads > 3400, `synchronous reads: ${r.measured.physicalReads}`);
      assert.equal(r.raw.Innodb_buffer_pool_reads, r.measured.physicalReads);
    } finally {
      await server.restart({ 'innodb-read-ahead-threshold': 56 });
    }
  });

  test('calibration makes an empty statement read nothing', () => {
    const report = measureJson(url, 'SELECT 1', '--runs', '3');
    for (const r of report.runs) assert.deepEqual(r.measured, { logicalReads: 0, physicalReads: 0, readAhead: 0 });
  });

  test('a second connection reading during the measurement produces a warning with the size of the gap', async () => {
    measureJson(url, 'SELECT COUNT(*) FROM other', '--runs', '1'); // cache it: the noise is logical reads
    const noisy = await connect();
    let stop = false;
    const loop = (async () => {
      while (!stop) await noisy.query('SELECT SUM(OCTET_LENGTH(pad)) FROM other');
    })();
    try {
      // Asynchronously: a synchronous child would stall the noisy loop of this process.
      const { done } = cliAsync(['measure', '--url', url, '--json', '--runs', '3', '--sql', STATEMENT]);
      const r = await done;
      assert.equal(r.code, 0, r.err);
      const report = JSON.parse(r.out);
      assert.ok(
        report.warnings.some((w: string) => /differ from the statement's own pages accessed .* by [\d,]+: something else was reading/.test(w)),
        report.warnings.join('\n'),
      );
      assert.ok(report.warnings.some((w: string) => /other sessions were active/.test(w)));
    } finally {
      stop = true;
      await loop;
      await noisy.end();
    }
  });

  for (const statement of [
    'UPDATE acct SET v = v + 1 WHERE id <= 1000',
    'DELETE FROM acct WHERE id % 2 = 0',
    'INSERT INTO acct SELECT id + 100000, v FROM acct WHERE id <= 200',
  ]) {
    test(`leaves the data unchanged: ${statement}`, async () => {
      const before = await checksum();
      const report = measureJson(url, statement, '--runs', '3');
      assert.equal(await checksum(), before);
      assert.equal(report.rolledBack, true);
      assert.equal(report.dataChanging, true);
      assert.ok(report.runs.every((r: { measured: { logicalReads: number } }) => r.measured.logicalReads > 0));
      // The scan is predicted, and so are the rows an UPDATE or DELETE changed, with the rollback.
      const kind = statement.split(' ')[0];
      if (kind !== 'INSERT') {
        const p = report.runs[0].prediction;
        assert.match(
          p.assumptions.join('\n'),
          new RegExp(`acct: [\\d,]+ rows ${kind === 'UPDATE' ? 'updated' : 'deleted'} \\(Handler_${kind.toLowerCase()}\\)`),
        );
        assert.match(p.assumptions.join('\n'), /the rollback reads each undo record/);
        assert.doesNotMatch(p.unmodelled.join('\n'), /the changes it makes/);
      }
    });
  }

  test('an INSERT is predicted with its rollback, names its rows and key order, and gets a change-buffering what-if', () => {
    const report = measureJson(url, 'INSERT INTO acct SELECT id + 200000, v + 7 FROM acct WHERE id <= 500', '--runs', '2');
    assert.deepEqual(validateReport(report), []);
    const run = report.runs[0];
    const assumptions: string = run.prediction.assumptions.join('\n');
    assert.match(assumptions, /lab\.acct: 500 rows inserted \(Handler_write\)/);
    assert.match(assumptions, /lab\.acct\.v: each entry lands on a random one of/);
    assert.match(assumptions, /the rollback removes each row again/);
    assert.ok(run.predicted.logicalReads > 500 * 4, `predicted logical ${run.predicted.logicalReads}`);
    assert.equal(run.predicted.physicalReads, run.measured.physicalReads, 'the small table is cached: nothing to read');
    assert.ok(!report.warnings.some((w: string) => /something else was reading/.test(w)), report.warnings.join('\n'));
    const series = report.whatIf.series.find((s: { setting: string }) => s.setting === 'innodb_change_buffering');
    assert.deepEqual(
      series.points.map((p: { label: string }) => p.label),
      ['none', 'all'],
    );
  });

  for (const [statement, reason] of [
    ['ALTER TABLE acct ADD COLUMN w INT', /ALTER TABLE commits implicitly/],
    ['TRUNCATE TABLE acct', /TRUNCATE TABLE commits implicitly/],
    ['CREATE TABLE x (id int)', /CREATE TABLE commits implicitly/],
    ['UPDATE legacy SET v = v + 1', /legacy uses the MyISAM engine, which is not transactional/],
  ] as Array<[string, RegExp]>) {
    test(`refused with the reason: ${statement}`, async () => {
      const before = await checksum();
      const r = cli('measure', '--url', url, '--sql', statement);
      assert.equal(r.code, 1);
      assert.match(r.err, reason);
      assert.equal(r.err.trim().split('\n').length, 1);
      assert.equal(await checksum(), before);
    });
  }

  test('--cold is refused on InnoDB with the reason; --cold=try measures and says so', () => {
    const r = cli('measure', '--url', url, '--cold', '--sql', 'SELECT 1');
    assert.equal(r.code, 1);
    assert.match(r.err, /InnoDB cannot evict one table .* restart .* innodb_buffer_pool_load_at_startup=OFF/);
    const report = measureJson(url, 'SELECT 1', '--cold=try', '--runs', '1');
    assert.ok(report.warnings.some((w: string) => /run 1 is not cold/.test(w)));
  });

  test('connection failures and syntax errors give one clear line', () => {
    const wrong = cli('measure', '--url', `mysql://tester:wrong@127.0.0.1:${server.port}/lab`, '--sql', 'SELECT 1');
    assert.match(wrong.err, /access denied for user "tester"/);
    assert.doesNotMatch(wrong.err, /wrong@/);
    const nodb = cli('measure', '--url', `mysql://tester:right-password@127.0.0.1:${server.port}/nosuch`, '--sql', 'SELECT 1');
    assert.match(nodb.err, /database "nosuch" does not exist/);
    const refused = cli('measure', '--url', 'mysql://root@127.0.0.1:1/lab', '--sql', 'SELECT 1');
    assert.match(refused.err, /connection refused/);
    const syntax = cli('measure', '--url', url, '--sql', 'SELECT * FRM t');
    assert.match(syntax.err, /You have an error in your SQL syntax.*near 'FRM t' at line 1/);
    for (const r of [wrong, nodb, refused, syntax]) {
      assert.equal(r.code, 1);
      assert.equal(r.err.trim().split('\n').length, 1, r.err);
    }
  });

  test('a statement over the time limit is stopped, and Ctrl-C cancels on the server; nothing is left open', async () => {
    const before = await checksum();
    const slow = cli('measure', '--url', url, '--timeout', '1', '--sql', 'UPDATE acct SET v = v + 1 WHERE SLEEP(0.01) = 0');
    assert.equal(slow.code, 1);
    assert.match(slow.err, /ran longer than the 1 s limit during run 1/);
    const r = await interruptWhenActive(
      ['measure', '--url', url, '--sql', 'UPDATE acct SET v = v + 1 WHERE SLEEP(0.05) = 0'],
      async () => (await q<{ n: number }>(`SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE 'ANALYZE FORMAT=JSON UPDATE%'`))[0].n > 0,
    );
    assert.equal(r.code, 1);
    assert.match(r.err, /cancelled during run 1/);
    assert.equal(await checksum(), before);
    // The server finishes with a connection after the client has gone (the killed UPDATE's rollback first):
    // its sessions must end, not at once.
    assert.ok(
      await waitUntil(async () => (await leftovers()) === 0, 100, 100),
      `sessions left: ${JSON.stringify(await q(`SELECT ID, COMMAND, STATE, INFO FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND USER = 'root'`))}`,
    );
  });

  test('BENCHMARK() stopped by the time limit is reported as stopped, not as a finished run', () => {
    const r = cli('measure', '--url', url, '--timeout', '1', '--sql', "SELECT BENCHMARK(1000000000, MD5('x'))");
    assert.equal(r.code, 1);
    assert.match(r.err, /ran longer than the 1 s limit during run 1/);
  });

  // Last: it kills the server. Before, the CLI exited 0 with no output.
  test('a server killed mid-statement gives a non-zero exit and one line, within the timeout', async () => {
    const { done } = cliAsync(['measure', '--url', url, '--timeout', '20', '--sql', 'SELECT SLEEP(15)']);
    for (let i = 0; i < 100; i++) {
      if ((await q<{ n: number }>(`SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE '%SLEEP(15)%' AND ID <> CONNECTION_ID()`))[0].n > 0)
        break;
      await new Promise((res) => setTimeout(res, 100));
    }
    server.killNow();
    const r = await done;
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.err, /lost the connection to the server during run 1/);
    assert.equal(r.err.trim().split('\n').length, 1);
    await server.restart();
  });
});
