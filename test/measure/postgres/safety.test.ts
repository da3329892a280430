// Measuring must never change data, and every failure ends in one clear line with nothing left open.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pgQuery } from '../../support/sql';
import { LocalPostgres } from '../../../src/local-server/postgres';
import { need, skipUnless, systemPostgres } from '../../support/engines';
import { cli, cliAsync, interruptWhenActive, measureJson } from '../../support/cli';
import { measure } from '../../../src/measure/measure';
import { parseConnectionUrl } from '../../../src/db/connection-url';

const availability = systemPostgres();

const sql = pgQuery;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PostgreSQL measurement safety and failures', skipUnless(availability), () => {
  let server: LocalPostgres;
  let url: string;
  const checksum = async () => (await sql<{ h: string }>(url, `SELECT md5(string_agg(id || ':' || v, ',' ORDER BY id)) || count(*) AS h FROM accounts`))[0].h;
  /** Sessions BufferLens left behind: none may remain, idle in a transaction or otherwise. */
  const leftovers = async () =>
    (await sql<{ n: number }>(url, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'bufferlens'`))[0].n;

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
      assert.ok(rows.every((n: number) => n === rows[0] && n > 0), `rows per run: ${rows}`);
      assert.equal(await leftovers(), 0);
    });
  }

  test('--commit keeps the changes', async () => {
    const before = await checksum();
    measureJson(url, 'UPDATE accounts SET v = v + 1 WHERE id = 1', '--runs', '1', '--commit');
    assert.notEqual(await checksum(), before);
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
      async () => (await sql<{ n: number }>(url, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'bufferlens' AND query LIKE 'EXPLAIN (ANALYZE%'`))[0].n > 0,
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
