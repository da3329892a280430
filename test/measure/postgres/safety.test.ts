// Measuring must never change data, and every failure ends in one clear line with nothing left open.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pgQuery } from '../../support/sql';
import { LocalPostgres } from '../../../src/local-server/postgres';
import { need, skipUnless, systemPostgres } from '../../support/engines';
import { cli, cliAsync, interruptWhenActive, measureJson } from '../../support/cli';
import { measure } from '../../../src/measure/measure';
import { parseConnectionUrl } from '../../../src/db/connection-url';
import { isAuthFailure } from '../../../src/db/errors';

const availability = systemPostgres();

const sql = pgQuery;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PostgreSQL measurement safety and failures', skipUnless(availability), () => {
  let server: LocalPostgres;
  let url: string;
  const checksum = async () => (await sql<{ h: string }>(url, `SELECT md5(string_agg(id || ':' || v, ',' ORDER BY id)) || count(*) AS h FROM accounts`))[0].h;
  /** Sessions BufferLens left behind: none may remain, idle in a transaction or otherwise. */
  const leftovers = async () => (await sql<{ n: number }>(url, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'bufferlens'`))[0].n;

  before(async () => {
    server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '16MB' }, hostAuth: 'scram-sha-256' });
    const admin = server.socketUrl();
    await sql(admin, `CREATE ROLE tester LOGIN SUPERUSER PASSWORD 'right-password'`);
    await sql(admin, `CREATE TABLE accounts (id int PRIMARY KEY, v int NOT NULL)`);
    await sql(admin, `INSERT INTO accounts SELECT g, g * 10 FROM generate_series(1, 2000) g`);
    await sql(admin, `CREATE TABLE audit (id serial PRIMARY KEY, account int, v int)`);
    url = server.url('postgres', 'tester', 'right-password');
  });
  after(async () => server?.stop());

  const writers = [
    'UPDATE accounts SET v = v + 1 WHERE id <= 500',
    'DELETE FROM accounts WHERE id % 3 = 0',
    'INSERT INTO accounts SELECT id + 100000, v FROM accounts WHERE id <= 100',
    'WITH gone AS (DELETE FROM accounts WHERE id > 1500 RETURNING id, v) INSERT INTO audit (account, v) SELECT id, v FROM gone',
  ];
  for (const statement of writers) {
    test(`leaves the data exactly as it was: ${statement.slice(0, 40)}…`, async () => {
      const before = await checksum();
      const auditBefore = (await sql<{ n: number }>(url, 'SELECT count(*)::int AS n FROM audit'))[0].n;
      const report = measureJson(url, statement, '--runs', '3');
      assert.equal(await checksum(), before);
      assert.equal((await sql<{ n: number }>(url, 'SELECT count(*)::int AS n FROM audit'))[0].n, auditBefore);
      assert.equal(report.rolledBack, true);
      assert.equal(report.dataChanging, true);
      // Every run saw the same data: the modifying node processed the same rows each time.
      const rows = report.runs.map((r: { plan: { children: Array<{ actualRows: number }> } }) => r.plan.children[0]?.actualRows);
      assert.ok(
        rows.every((n: number) => n === rows[0] && n > 0),
        `rows per run: ${rows}`,
      );
      assert.equal(await leftovers(), 0);
    });
  }

  test('--commit keeps the changes', async () => {
    const before = await checksum();
    measureJson(url, 'UPDATE accounts SET v = v + 1 WHERE id = 1', '--runs', '1', '--commit');
    assert.notEqual(await checksum(), before);
  });

  test('a typo reaches the server behind EXPLAIN, which names the syntax error and where it is; nothing runs', async () => {
    const target = parseConnectionUrl(url);
    const options = { runs: 1, cold: 'no' as const, commit: false, timing: false, timeoutMs: 10_000, whatIf: false };
    await assert.rejects(measure(target, { ...options, sql: 'SELEC v FROM accounts' }), (err: Error & { at?: { line: number; column: number } }) => {
      assert.match(err.message, /^syntax error at or near "SELEC" \(line 1, column 1\)/);
      assert.deepEqual(err.at, { line: 1, column: 1 });
      return true;
    });
    await assert.rejects(measure(target, { ...options, sql: 'SELECT v\n  FORM accounts' }), (err: Error & { at?: { line: number; column: number } }) => {
      assert.deepEqual(err.at, { line: 2, column: 8 });
      return true;
    });
    assert.equal(await leftovers(), 0);
  });

  test('VACUUM is refused with the reason, before anything runs', () => {
    const r = cli('measure', '--url', url, '--sql', 'VACUUM accounts');
    assert.equal(r.code, 1);
    assert.match(r.err, /VACUUM cannot run inside a transaction block/);
    assert.equal(r.err.trim().split('\n').length, 1);
  });

  test('a syntax error comes back as the server said it, with its line and column', () => {
    const r = cli('measure', '--url', url, '--sql', 'SELECT *\nFROM accounts\nWHER id = 1');
    assert.equal(r.code, 1);
    assert.match(r.err, /syntax error at or near "id" \(line 3, column 6\)/);
    // Lines and columns of the input as given: what comes before the statement counts.
    const led = cli('measure', '--url', url, '--sql', '-- the account\n\n  SELECT * FROM accounts WHER id = 1');
    assert.match(led.err, /syntax error at or near "id" \(line 3, column 31\)/);
  });

  test('several statements: the first is measured, with a warning', () => {
    const report = measureJson(url, 'SELECT count(*) FROM accounts; DROP TABLE accounts;', '--runs', '1');
    assert.match(report.statement, /^SELECT count\(\*\) FROM accounts$/);
    assert.ok(report.warnings.some((w: string) => /2 statements; only the first/.test(w)));
  });

  test('empty input is an error', () => {
    const r = cli('measure', '--url', url, '--sql', '  -- only a comment\n');
    assert.equal(r.code, 1);
    assert.match(r.err, /no statement to measure/);
  });

  test('a wrong password is an authentication failure the editor offers to re-enter; an unknown database is not', async () => {
    const attempt = (u: string) =>
      measure(parseConnectionUrl(u), { sql: 'SELECT 1', runs: 1, cold: 'no', commit: false, timing: false, timeoutMs: 5_000, whatIf: false }).then(
        () => undefined,
        (e: unknown) => e,
      );
    assert.equal(isAuthFailure(await attempt(server.url('postgres', 'tester', 'wrong-password'))), true);
    assert.equal(isAuthFailure(await attempt(server.url('nosuchdb', 'tester', 'right-password'))), false);
  });

  test('wrong password, unknown database and refused connection give one clear line', () => {
    const wrong = cli('measure', '--url', server.url('postgres', 'tester', 'wrong'), '--sql', 'SELECT 1');
    assert.equal(wrong.code, 1);
    assert.match(wrong.err, /password authentication failed for user "tester"/);
    assert.doesNotMatch(wrong.err, /wrong/);
    const nodb = cli('measure', '--url', server.url('nosuchdb', 'tester', 'right-password'), '--sql', 'SELECT 1');
    assert.match(nodb.err, /database "nosuchdb" does not exist/);
    const refused = cli('measure', '--url', 'postgres://tester@127.0.0.1:1/postgres', '--sql', 'SELECT 1');
    assert.match(refused.err, /connection refused by postgres:\/\/tester@127.0.0.1:1\/postgres/);
    for (const r of [wrong, nodb, refused]) assert.equal(r.err.trim().split('\n').length, 1);
  });

  test('a statement over the time limit is stopped and rolled back', async () => {
    const r = cli('measure', '--url', url, '--timeout', '1', '--sql', 'UPDATE accounts SET v = v + 1 WHERE pg_sleep(0.01) IS NOT NULL');
    assert.equal(r.code, 1);
    assert.match(r.err, /ran longer than the 1 s limit during run 1/);
    assert.equal(await leftovers(), 0);
  });

  test('Ctrl-C cancels the statement on the server and closes everything', async () => {
    const before = await checksum();
    const r = await interruptWhenActive(
      ['measure', '--url', url, '--sql', 'UPDATE accounts SET v = v + 1 WHERE pg_sleep(30) IS NOT NULL'],
      async () =>
        (
          await sql<{ n: number }>(
            url,
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'bufferlens' AND query LIKE 'EXPLAIN (ANALYZE%'`,
          )
        )[0].n > 0,
    );
    assert.equal(r.code, 1);
    assert.match(r.err, /cancelled during run 1/);
    assert.equal(await checksum(), before);
    assert.equal(await leftovers(), 0);
  });

  test('a cancel between runs stops the measurement too, with nothing left open', async () => {
    const abort = new AbortController();
    let runsStarted = 0;
    await assert.rejects(
      measure(parseConnectionUrl(url), {
        sql: 'SELECT count(*) FROM accounts',
        runs: 5,
        cold: 'no',
        commit: false,
        timing: false,
        timeoutMs: 10_000,
        whatIf: false,
        signal: abort.signal,
        onProgress: () => {
          if (++runsStarted === 2) abort.abort(); // while run 2 starts, after run 1 finished
        },
      }),
      /cancelled (before run 3|during run 2)/,
    );
    assert.ok(runsStarted < 5);
    assert.equal(await leftovers(), 0);
  });

  test('SIGTERM and SIGHUP stop the statement on the server and release its row locks, as Ctrl-C does', async () => {
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
      const { child, done } = cliAsync(['measure', '--url', url, '--sql', 'UPDATE accounts SET v = v + 1 WHERE id = 7 AND pg_sleep(30) IS NOT NULL']);
      const active = async () =>
        (
          await sql<{ n: number }>(
            url,
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'bufferlens' AND query LIKE 'EXPLAIN (ANALYZE%'`,
          )
        )[0].n > 0;
      for (let i = 0; i < 100 && !(await active()); i++) await sleep(100);
      child.kill(signal);
      const r = await done;
      assert.equal(r.code, 1, signal);
      assert.match(r.err, /cancelled during run 1/);
      // The row lock is gone at once: an update of the same row does not wait.
      await sql(url, `SET lock_timeout = '2s'; UPDATE accounts SET v = v WHERE id = 7`);
      assert.equal(await leftovers(), 0);
    }
  });

  test('planning is under the time limit too: a slow function folded while planning is stopped', async () => {
    await sql(url, `CREATE OR REPLACE FUNCTION slow_constant() RETURNS int IMMUTABLE LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(25); RETURN 1; END $$`);
    const started = Date.now();
    const r = cli('measure', '--url', url, '--timeout', '2', '--sql', 'SELECT * FROM accounts WHERE id = slow_constant()');
    assert.equal(r.code, 1);
    assert.match(r.err, /ran longer than the 2 s limit/);
    assert.ok(Date.now() - started < 20_000, `stopped after ${Date.now() - started} ms`);
    assert.equal(await leftovers(), 0);
  });

  test("a what-if of terabytes costs what the statement's pages cost", () => {
    const report = measureJson(url, 'SELECT count(*) FROM accounts', '--runs', '1', '--what-if', 'pool=4TB,99999999TB');
    const pool = report.whatIf.series.find((s: { setting: string }) => s.setting === 'shared_buffers');
    const labels = pool.points.map((p: { label: string }) => p.label).slice(-2);
    assert.equal(labels[0], '4,194,304 MiB');
    assert.match(labels[1], /^104,857,59\d(,\d{3})+ MiB$/);
    assert.ok(pool.points.every((p: { physicalReads: number }) => Number.isFinite(p.physicalReads)));
  });

  test('an error on run 2 names the run', async () => {
    // A session-level advisory lock survives run 1's rollback: the second call sees it and fails.
    await sql(
      url,
      `CREATE OR REPLACE FUNCTION fail_on_second() RETURNS int VOLATILE LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND objid = 4242) THEN RAISE EXCEPTION 'second call'; END IF;
        PERFORM pg_advisory_lock(4242);
        RETURN 1;
      END $$`,
    );
    const r = cli('measure', '--url', url, '--runs', '2', '--sql', 'SELECT fail_on_second()');
    assert.equal(r.code, 1);
    assert.match(r.err, /second call during run 2/);
  });

  test('a server that stops mid-run gives one clear line, and nothing hangs', async () => {
    const { done } = cliAsync(['measure', '--url', url, '--sql', 'SELECT pg_sleep(30)']);
    await sleep(1500);
    await server.restart();
    const r = await done;
    assert.equal(r.code, 1);
    assert.match(r.err, /lost the connection to the server during run 1|terminat/);
    assert.equal(r.err.trim().split('\n').length, 1);
  });
});
