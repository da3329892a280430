// What a rollback cannot undo, on a real MariaDB: every way a statement reaches a non-transactional
// table (triggers, views, stored functions, multi-table forms, odd spellings) is refused before anything
// runs; reads run read-only; global settings and files changed in a function are refused; sequences and
// AUTO_INCREMENT counters that advance are named.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createConnection } from 'mysql2/promise';
import { LocalInnodbServer } from '../../../src/local-server/mariadb';
import { mariadb, need, skipUnless } from '../../support/engines';
import { measure } from '../../../src/measure/measure';
import { parseConnectionUrl } from '../../../src/db/connection-url';
import type { MeasureOptions } from '../../../src/measure/options';

const availability = mariadb();

describe('MariaDB: what a rollback cannot undo', skipUnless(availability), () => {
  let server: LocalInnodbServer;
  let url: string;
  const q = async <T = Record<string, unknown>>(text: string): Promise<T[]> => {
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root', database: 'lab' });
    try {
      return (await c.query(text))[0] as T[];
    } finally {
      await c.end();
    }
  };
  const run = (sql: string, extra: Partial<MeasureOptions> = {}) =>
    measure(parseConnectionUrl(url), { sql, runs: 2, cold: 'no', commit: false, timing: false, timeoutMs: 20_000, whatIf: false, ...extra });
  const state = async () => {
    const [m] = await q<{ n: number; s: number }>('SELECT COUNT(*) AS n, COALESCE(SUM(v), 0) AS s FROM m');
    const [g] = await q<{ v: number }>('SELECT @@GLOBAL.max_connections AS v');
    return `${m.n}:${m.s}:${g.v}`;
  };

  before(async () => {
    server = await LocalInnodbServer.start({ binaries: need(availability), settings: { 'innodb-buffer-pool-size': '32M' } });
    const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
    for (const s of [
      'CREATE DATABASE lab',
      'USE lab',
      'CREATE TABLE t (id INT PRIMARY KEY, v INT) ENGINE=InnoDB',
      'INSERT INTO t SELECT seq, seq FROM seq_1_to_1000',
      'CREATE TABLE tr_src (id INT PRIMARY KEY, v INT) ENGINE=InnoDB',
      'CREATE TABLE m (id INT AUTO_INCREMENT PRIMARY KEY, v INT) ENGINE=MyISAM',
      'INSERT INTO m (v) SELECT seq FROM seq_1_to_100',
      'CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, v INT) ENGINE=InnoDB',
      'CREATE TRIGGER to_m AFTER INSERT ON tr_src FOR EACH ROW INSERT INTO m (v) VALUES (NEW.v)',
      'CREATE VIEW vm AS SELECT id, v FROM m',
      'CREATE FUNCTION writes_m() RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO m (v) VALUES (1); RETURN 1; END',
      'CREATE FUNCTION sets_global() RETURNS INT BEGIN SET GLOBAL max_connections = 77; RETURN 1; END',
      'CREATE SEQUENCE sq',
      // Call chains: a function that CALLs a procedure, a trigger whose function CALLs one; a default that takes a sequence.
      'CREATE PROCEDURE p_global() BEGIN SET GLOBAL max_connections = 66; END',
      'CREATE FUNCTION calls_p() RETURNS INT BEGIN CALL p_global(); RETURN 1; END',
      'CREATE PROCEDURE p_m() BEGIN INSERT INTO m (v) VALUES (9); END',
      'CREATE FUNCTION f_pm() RETURNS INT MODIFIES SQL DATA BEGIN CALL p_m; RETURN 1; END',
      'CREATE TABLE tr2 (id INT PRIMARY KEY, v INT) ENGINE=InnoDB',
      'CREATE TRIGGER tr2_f AFTER INSERT ON tr2 FOR EACH ROW SET @x = f_pm()',
      'CREATE TABLE d (id INT PRIMARY KEY, s BIGINT DEFAULT (NEXTVAL(sq))) ENGINE=InnoDB',
      'ANALYZE TABLE t, a, tr_src',
      // A measuring user without the index statistics: measured, with no prediction and the GRANT that gives one.
      "CREATE USER nostats@'127.0.0.1' IDENTIFIED BY 'pw'",
      "GRANT SELECT ON lab.* TO nostats@'127.0.0.1'",
      "GRANT PROCESS ON *.* TO nostats@'127.0.0.1'",
      // Without PROCESS (InnoDB's information_schema views), with and without the index statistics.
      "CREATE USER noproc@'127.0.0.1' IDENTIFIED BY 'pw'",
      "GRANT SELECT ON lab.* TO noproc@'127.0.0.1'",
      "GRANT SELECT ON mysql.innodb_index_stats TO noproc@'127.0.0.1'",
      "CREATE USER bare@'127.0.0.1' IDENTIFIED BY 'pw'",
      "GRANT SELECT ON lab.* TO bare@'127.0.0.1'",
    ]) {
      await c.query(s);
    }
    await c.end();
    url = server.url('lab');
  });
  after(async () => server?.stop());

  for (const [statement, reason] of [
    ['INSERT INTO tr_src VALUES (1, 1)', /lab\.m uses the MyISAM engine, which is not transactional/],
    ['UPDATE vm SET v = v + 1', /lab\.m uses the MyISAM engine/],
    ['UPDATE t, m SET t.v = t.v + 1, m.v = m.v + 1 WHERE t.id = m.id', /lab\.m uses the MyISAM engine/],
    ['DELETE m FROM t JOIN m ON m.id = t.id', /lab\.m uses the MyISAM engine/],
    ['REPLACE /*c*/ INTO m VALUES (1, 5)', /lab\.m uses the MyISAM engine/],
    ['INSERT INTO lab . m (v) VALUES (7)', /lab\.m uses the MyISAM engine/],
    ['UPDATE t SET v = writes_m() WHERE id = 1', /lab\.m uses the MyISAM engine/],
  ] as Array<[string, RegExp]>) {
    test(`a write that reaches a MyISAM table is refused, and nothing changes: ${statement}`, async () => {
      const before = await state();
      await assert.rejects(run(statement), reason);
      assert.equal(await state(), before);
    });
  }

  test('a reading statement runs read-only: a stored function that writes fails instead of adding rows', async () => {
    const before = await state();
    await assert.rejects(run('SELECT writes_m()'), /READ ONLY transaction/);
    await assert.rejects(run('SELECT id FROM t WHERE id = writes_m()'), /READ ONLY transaction/);
    await assert.rejects(run('SELECT NEXTVAL(sq)'), /READ ONLY transaction/);
    assert.equal(await state(), before);
  });

  test('a function that changes a global setting is refused before it runs', async () => {
    const before = await state();
    await assert.rejects(run('SELECT sets_global()'), /refused: lab\.sets_global changes a global setting/);
    assert.equal(await state(), before);
  });

  test('INTO OUTFILE is refused however it is spelled, in MariaDB executable comments too', async () => {
    // Names no earlier run can have left (a server that did write would leave them for good).
    const stamp = `${process.pid}-${Date.now()}`;
    const files = ['a', 'b', 'm', 'v'].map((k) => `/tmp/bl-outfile-${k}-${stamp}`);
    for (const s of [
      `SELECT 1 INTO/**/OUTFILE '${files[0]}'`,
      `SELECT 1 INTO -- x\n OUTFILE '${files[1]}'`,
      `SELECT 1 /*M! INTO OUTFILE '${files[2]}' */`,
      `SELECT 1 /*M!100100 INTO OUTFILE '${files[3]}' */`,
    ]) {
      await assert.rejects(run(s), /INTO OUTFILE\/DUMPFILE writes a file/);
    }
    for (const f of files) assert.ok(!existsSync(f), f);
  });

  test('a function that CALLs a procedure changing a global setting is refused; nothing changes', async () => {
    const before = await state();
    await assert.rejects(run('SELECT calls_p()'), /refused: lab\.p_global changes a global setting/);
    assert.equal(await state(), before);
  });

  test('a trigger whose function CALLs a procedure writing a MyISAM table is refused; nothing changes', async () => {
    const before = await state();
    await assert.rejects(run('INSERT INTO tr2 VALUES (1, 1)'), /lab\.m uses the MyISAM engine/);
    assert.equal(await state(), before);
  });

  test('a sequence a column default takes is named as advancing', async () => {
    const report = await run('INSERT INTO d (id) VALUES (1)');
    assert.match(report.warnings.join('\n'), /sequence lab\.sq may advance: sequences are not transactional/);
    const [{ n }] = await q<{ n: number }>('SELECT COUNT(*) AS n FROM d');
    assert.equal(n, 0);
  });

  test('without PROCESS the statement is measured, with no residency and no prediction, each with the GRANT that gives it', async () => {
    const as = (user: string) =>
      measure(parseConnectionUrl(`mysql://${user}:pw@127.0.0.1:${server.port}/lab`), {
        sql: 'SELECT SUM(v) FROM t',
        runs: 2,
        cold: 'no',
        commit: false,
        timing: false,
        timeoutMs: 20_000,
        whatIf: false,
      });
    // Without PROCESS a measurement cannot see purge's history list to wait for it, and the counters are
    // global: the earlier tests' rolled-back writes are purged first (a CI run measured 271 gets where 4 are).
    await q('SET GLOBAL innodb_max_purge_lag_wait = 0');
    const noproc = await as('noproc');
    assert.ok(noproc.runs[0].measured.logicalReads! > 0);
    assert.deepEqual(noproc.runs[0].predicted, { logicalReads: null, physicalReads: null, readAhead: null });
    assert.ok(noproc.runs.every((r) => r.residency.every((x) => x.cachedBefore === null && x.cachedAfter === null)));
    const said = noproc.warnings.join('\n');
    assert.match(said, /measured without PROCESS.*GRANT PROCESS ON \*\.\* TO 'noproc'@'127\.0\.0\.1' gives them/);
    assert.match(said, /^no prediction: .*GRANT PROCESS ON \*\.\* TO 'noproc'@'127\.0\.0\.1' enables it/m);
    assert.doesNotMatch(said, /INNODB_METRICS module is off/);
    await q('SET GLOBAL innodb_max_purge_lag_wait = 0');
    const bare = await as('bare');
    assert.equal(bare.runs[1].measured.logicalReads, noproc.runs[1].measured.logicalReads);
    assert.deepEqual(bare.runs[0].predicted, { logicalReads: null, physicalReads: null, readAhead: null });
    assert.match(bare.warnings.join('\n'), /measured without PROCESS/);
  });

  test('without SELECT on mysql.innodb_index_stats the statement is measured, its prediction not modelled with the GRANT that would enable it', async () => {
    const target = parseConnectionUrl(`mysql://nostats:pw@127.0.0.1:${server.port}/lab`);
    const report = await measure(target, { sql: 'SELECT SUM(v) FROM t', runs: 2, cold: 'no', commit: false, timing: false, timeoutMs: 20_000, whatIf: true });
    assert.ok(report.runs[0].measured.logicalReads! > 0);
    assert.deepEqual(report.runs[0].predicted, { logicalReads: null, physicalReads: null, readAhead: null });
    assert.match(report.runs[0].prediction!.unmodelled.join('\n'), /GRANT SELECT ON mysql\.innodb_index_stats TO 'nostats'@'127\.0\.0\.1' enables it/);
    assert.match(report.warnings.join('\n'), /^no prediction: the measuring user may not read mysql\.innodb_index_stats/m);
    // Residency per table then, sized by its tablespace file.
    const t = report.runs[0].residency.find((r) => r.relation === 'lab.t');
    assert.ok(t && t.pages > 0 && t.cachedAfter! > 0, JSON.stringify(report.runs[0].residency));
    assert.match(report.warnings.join('\n'), /residency per table, sized by its tablespace file/);
  });

  test('a syntax error says where it is in the statement; a word that is no command is called a typo, not sent', async () => {
    await assert.rejects(run('SELECT id\n  FRM t'), (err: Error & { at?: { line: number; column: number } }) => {
      assert.match(err.message, /You have an error in your SQL syntax.*near 't' at line \d+ \(line 2, column 7\)/s);
      assert.deepEqual(err.at, { line: 2, column: 7 });
      return true;
    });
    // Lines and columns of the input as given: what comes before the statement counts.
    await assert.rejects(run('-- why\n  SELECT id FRM t'), (err: Error & { at?: { line: number; column: number } }) => {
      assert.deepEqual(err.at, { line: 2, column: 17 });
      assert.match(err.message, /\(line 2, column 17\)/);
      return true;
    });
    await assert.rejects(run('SELEC id FROM t'), /"SELEC" is not a MySQL or MariaDB command \(a typo\?\)/);
  });

  test('EXPLAIN, SHOW and DO are refused with the reason, not sent to fail as a syntax error', async () => {
    for (const s of ['EXPLAIN SELECT 1', 'SHOW TABLES', 'DO 1']) await assert.rejects(run(s), /cannot be measured/);
  });

  test('an AUTO_INCREMENT counter a rolled-back insert advances is named after the runs', async () => {
    const report = await run('INSERT INTO a (v) SELECT seq FROM seq_1_to_10');
    // 10 rows per run; InnoDB reserves values in growing batches for an INSERT … SELECT, so at least 20.
    const advanced = report.warnings
      .map((w) => /AUTO_INCREMENT counter of lab\.a advanced by at least (\d+) over the runs/.exec(w)?.[1])
      .find((x) => x !== undefined);
    assert.ok(Number(advanced) >= 20, report.warnings.join('\n'));
    const [{ n }] = await q<{ n: number }>('SELECT COUNT(*) AS n FROM a');
    assert.equal(n, 0);
  });

  test('a table whose name needs quoting gets its residency and prediction', async () => {
    await q('CREATE TABLE `x<y>&"z` (id INT PRIMARY KEY, v INT) ENGINE=InnoDB');
    await q('INSERT INTO `x<y>&"z` SELECT seq, seq FROM seq_1_to_2000');
    await q('ANALYZE TABLE `x<y>&"z`');
    const report = await run('SELECT SUM(v) FROM `x<y>&"z`');
    const rel = report.runs[0].residency.find((r) => r.relation === 'lab.x<y>&"z');
    assert.ok(rel, JSON.stringify(report.runs[0].residency));
    assert.ok(rel.pages > 0 && rel.cachedAfter! > 0);
    assert.ok(report.runs[0].predicted.logicalReads! > 0);
  });

  test('measuring with ALL PRIVILEGES is flagged', async () => {
    const report = await run('SELECT COUNT(*) FROM t');
    assert.ok(
      report.warnings.some((w) => /measured with ALL PRIVILEGES or SUPER/.test(w)),
      report.warnings.join('\n'),
    );
  });
});
