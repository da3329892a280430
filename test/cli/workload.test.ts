// `bufferlens workload predict|run` by running the CLI against a private PostgreSQL holding pgbench's
// schema: the curve, the measured point beside the prediction for the same transactions, the writes
// rolled back, and the refusals.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Client } from 'pg';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, systemPostgres } from '../support/engines';
import { cli, cliAsync } from '../support/cli';
import { waitUntil } from '../support/wait';
import type { WorkloadReport } from '../../src/shared/workload-report';

const availability = systemPostgres();
const SCALE = 2;

/** pgbench -i's schema and rows (scale 2: 200,000 accounts), as SQL. */
const PGBENCH_INIT = [
  'CREATE TABLE pgbench_branches (bid int NOT NULL PRIMARY KEY, bbalance int, filler char(88)) WITH (fillfactor = 100)',
  'CREATE TABLE pgbench_tellers (tid int NOT NULL PRIMARY KEY, bid int, tbalance int, filler char(84)) WITH (fillfactor = 100)',
  'CREATE TABLE pgbench_accounts (aid int NOT NULL, bid int, abalance int, filler char(84)) WITH (fillfactor = 100)',
  'CREATE TABLE pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22))',
  `INSERT INTO pgbench_branches SELECT g, 0 FROM generate_series(1, ${SCALE}) g`,
  `INSERT INTO pgbench_tellers SELECT g, (g - 1) / 10 + 1, 0 FROM generate_series(1, ${10 * SCALE}) g`,
  `INSERT INTO pgbench_accounts SELECT g, (g - 1) / 100000 + 1, 0, '' FROM generate_series(1, ${100_000 * SCALE}) g`,
  'ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid)',
  'VACUUM (FREEZE, ANALYZE)',
  'CREATE EXTENSION pg_stat_statements',
];

describe('bufferlens workload on PostgreSQL', skipUnless(availability), () => {
  let server: LocalPostgres;
  let dir: string;
  before(async () => {
    // 16 MB of shared buffers against about 30 MB of accounts: the pool size matters.
    server = await LocalPostgres.start({
      binaries: need(availability),
      settings: { shared_buffers: '16MB', autovacuum: 'off', shared_preload_libraries: 'pg_stat_statements' },
    });
    const c = new Client({ connectionString: server.url() });
    await c.connect();
    for (const q of PGBENCH_INIT) await c.query(q);
    await c.end();
    dir = mkdtempSync(join(tmpdir(), 'bufferlens-workload-test-'));
  });
  after(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const query = async (sql: string) => {
    const c = new Client({ connectionString: server.url() });
    await c.connect();
    try {
      return (await c.query(sql)).rows;
    } finally {
      await c.end();
    }
  };

  test('predict: a curve from 8 MiB to twice the data with the pool now marked, misses falling as it grows, :scale read from pgbench_branches', () => {
    const r = cli('workload', 'predict', '--url', server.url(), '--builtin', 'select-only', '--json');
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out) as WorkloadReport;
    assert.equal(report.engine, 'postgresql');
    assert.equal(report.statements.length, 1);
    assert.equal(report.statements[0].notModelled, undefined);
    const now = report.curve.filter((p) => p.current);
    assert.equal(now.length, 1);
    assert.equal(now[0].poolBytes, 16 * 1048576);
    for (let i = 1; i < report.curve.length; i++) {
      assert.ok(report.curve[i].poolBytes > report.curve[i - 1].poolBytes);
      assert.ok(report.curve[i].readsPerTransaction <= report.curve[i - 1].readsPerTransaction * 1.02 + 0.001);
    }
    // A lookup: the root, the leaf (200,000 keys need no middle level at this size), the heap page.
    assert.ok(now[0].requestsPerTransaction >= 3 && now[0].requestsPerTransaction <= 4, String(now[0].requestsPerTransaction));
    assert.ok(now[0].hitRatio > 0.3 && now[0].hitRatio < 0.95, String(now[0].hitRatio));
    assert.ok(report.sizeFor.hitRatio99 !== null && report.sizeFor.hitRatio99 > 16 * 1048576);
    mkdirSync('test-output/workload', { recursive: true });
    writeFileSync('test-output/workload/select-only-predict.json', JSON.stringify(report, null, 1) + '\n');
    const text = cli('workload', 'predict', '--url', server.url(), '--builtin', 'select-only');
    assert.match(text.out, /serves 99 % of this mix's page requests/);
    assert.match(text.out, /▸ 16 MiB/);
  });

  test('run: the measured hit ratio at the pool now within 10 % (on the miss ratio) of the prediction for the same transactions', () => {
    const r = cli(
      'workload',
      'run',
      '--url',
      server.url(),
      '--builtin',
      'select-only',
      '--sessions',
      '2',
      '--warmup-transactions',
      '30000',
      '--transactions',
      '30000',
      '--json',
    );
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out) as WorkloadReport;
    const m = report.measured!;
    assert.equal(m.transactions, 30000);
    assert.equal(m.errors, 0);
    const p = report.curve.find((x) => x.current)!;
    const error = Math.abs(1 - p.hitRatio - (1 - m.hitRatio)) / (1 - m.hitRatio);
    assert.ok(error < 0.1, `miss ratio measured ${(1 - m.hitRatio).toFixed(4)}, predicted ${(1 - p.hitRatio).toFixed(4)}`);
    assert.ok(Math.abs(m.requests / m.transactions - p.requestsPerTransaction) < 0.5, `${m.requests / m.transactions} vs ${p.requestsPerTransaction}`);
    // Throughput per size: with the sessions always busy, sessions / mean latency is the measured rate.
    assert.ok(m.latency!.meanMs > 0 && m.latency!.p95Ms >= m.latency!.meanMs * 0.5, JSON.stringify(m.latency));
    assert.ok(
      Math.abs((m.sessions * 1000) / m.latency!.meanMs / m.transactionsPerSecond - 1) < 0.25,
      `${m.transactionsPerSecond} tx/s, ${m.latency!.meanMs} ms`,
    );
    assert.ok(m.costs !== undefined || /./.test(m.costsNotReported ?? ''), 'costs, or why not');
    if (m.costs) {
      const rates = report.curve.map((x) => x.throughput!.transactionsPerSecond);
      for (let i = 1; i < rates.length; i++) assert.ok(rates[i] >= rates[i - 1] - 1e-9, `a larger pool predicted slower: ${rates}`);
      assert.ok(Math.abs(p.throughput!.transactionsPerSecond / m.transactionsPerSecond - 1) < 0.25);
    } else assert.ok(report.curve.every((x) => x.throughput === undefined));
    writeFileSync('test-output/workload/select-only-run.json', JSON.stringify(report, null, 1) + '\n');
  });

  test('predict: the first update of each full heap page moves its new version and adds an index entry, as committed updates measure', async () => {
    // Full pages, as pgbench loads them, and more pages than the updates reach, so most are a page's first.
    for (const q of [
      'CREATE TABLE moved (id int NOT NULL, v int, filler char(84)) WITH (fillfactor = 100)',
      "INSERT INTO moved SELECT g, 0, '' FROM generate_series(1, 100000) g",
      'ALTER TABLE moved ADD PRIMARY KEY (id)',
      'VACUUM (FREEZE, ANALYZE) moved',
    ])
      await query(q);
    const file = join(dir, 'moved.sql');
    writeFileSync(file, '\\set id random(1, 100000)\nUPDATE moved SET v = v + 1 WHERE id = :id;\n');
    const r = cli('workload', 'predict', '--url', server.url(), file, '--warmup-transactions', '0', '--transactions', '1500', '--json');
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out) as WorkloadReport;
    assert.ok(
      report.statements[0].notes.some((n) => /moves the new version/.test(n)),
      JSON.stringify(report.statements),
    );
    const predicted = report.curve.find((x) => x.current)!.statements[0]!.requestsPerExecution;
    // The same number of updates, committed, each on a random row; pg_stat_statements counts their buffers alone.
    const c = new Client({ connectionString: server.url() });
    await c.connect();
    try {
      await c.query('SELECT pg_stat_statements_reset()');
      let seed = 12345;
      for (let i = 0; i < 1500; i++) {
        seed = (seed * 48271) % 2147483647;
        await c.query('UPDATE moved SET v = v + 1 WHERE id = $1', [1 + (seed % 100000)]);
      }
    } finally {
      await c.end();
    }
    const [row] = await query(
      "SELECT sum(shared_blks_hit + shared_blks_read)::float8 / sum(calls) AS per FROM pg_stat_statements WHERE query LIKE 'UPDATE moved%'",
    );
    const measured = Number(row.per);
    // An update that stays on its page (HOT) takes 5 buffers here, a page's first 10 (measured one by one on
    // PostgreSQL 15); about two in three of these are their page's first. Without the move, 5 were predicted.
    assert.ok(Math.abs(measured - predicted) / measured < 0.08, `${measured.toFixed(2)} measured, ${predicted.toFixed(2)} predicted per UPDATE`);
    console.log(`# moved: ${measured.toFixed(2)} buffers per UPDATE measured, ${predicted.toFixed(2)} predicted`);
  });

  test('run: a writing script is rolled back, every transaction, and says what that leaves', async () => {
    const before = await query('SELECT sum(abalance)::int AS s, (SELECT count(*)::int FROM pgbench_history) AS h FROM pgbench_accounts');
    const r = cli(
      'workload',
      'run',
      '--url',
      server.url(),
      '--builtin',
      'tpcb-like',
      '--sessions',
      '2',
      '--warmup-transactions',
      '200',
      '--transactions',
      '500',
      '--json',
    );
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out) as WorkloadReport;
    assert.equal(report.measured!.committed, false);
    assert.match(report.measured!.notes.join(' '), /rolled back.*dead row version/);
    assert.deepEqual(await query('SELECT sum(abalance)::int AS s, (SELECT count(*)::int FROM pgbench_history) AS h FROM pgbench_accounts'), before);
    assert.equal((await query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'bufferlens'"))[0].n, 0);
  });

  test('refusals: --commit without naming the database disposable, a statement that is no DML, a bad script with its line', () => {
    const commit = cli('workload', 'run', '--url', server.url(), '--builtin', 'tpcb-like', '--commit');
    assert.equal(commit.code, 2);
    assert.match(commit.err, /--disposable postgres/);
    const ddl = join(dir, 'ddl.sql');
    writeFileSync(ddl, 'SELECT 1;\nTRUNCATE pgbench_history;\n');
    const refused = cli('workload', 'run', '--url', server.url(), ddl, '--transactions', '5');
    assert.equal(refused.code, 2);
    assert.match(refused.err, /ddl.sql:2: a workload runs SELECT, INSERT, UPDATE and DELETE statements; "TRUNCATE"/);
    const bad = join(dir, 'bad.sql');
    writeFileSync(bad, 'SELECT 1;\n\\set x random(1,\n');
    const broken = cli('workload', 'predict', '--url', server.url(), bad);
    assert.equal(broken.code, 2);
    assert.match(broken.err, /bad.sql:2: /);
  });

  test("run: measure's gate before anything runs: what a rollback cannot undo is refused with its line, through functions and triggers too", async () => {
    await query(`CREATE TABLE audit (id serial PRIMARY KEY, who int)`);
    await query(`CREATE FUNCTION kick(pid int) RETURNS boolean LANGUAGE sql AS $$ SELECT pg_terminate_backend(pid) $$`);
    await query(
      `CREATE FUNCTION audit_dynamic() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN EXECUTE 'INSERT INTO audit (who) VALUES (1)'; RETURN NEW; END $$`,
    );
    await query(`CREATE TRIGGER accounts_audit AFTER UPDATE ON pgbench_accounts FOR EACH ROW EXECUTE FUNCTION audit_dynamic()`);
    try {
      const cases: Array<[string, RegExp]> = [
        ['SELECT pg_terminate_backend(:pid);', /signal\.sql:2: refused: pg_terminate_backend signals another session/],
        ['SELECT kick(:pid);', /signal\.sql:2: refused: pg_terminate_backend signals another session/],
        ['UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :pid;', /signal\.sql:2: refused: public\.audit_dynamic runs dynamic SQL/],
      ];
      for (const [statement, refusal] of cases) {
        const file = join(dir, 'signal.sql');
        writeFileSync(file, `\\set pid 1\n${statement}\n`);
        const r = cli('workload', 'run', '--url', server.url(), file, '--transactions', '5', '--warmup-transactions', '0');
        assert.equal(r.code, 2, `${statement}: ${r.err}`);
        assert.match(r.err, refusal);
      }
      const [{ n }] = await query('SELECT count(*)::int AS n FROM audit');
      assert.equal(n, 0);
    } finally {
      await query('DROP TRIGGER accounts_audit ON pgbench_accounts');
    }
  });

  test('run: a workload whose every transaction fails ends with the first error, not a hit ratio over nothing', () => {
    const file = join(dir, 'fails.sql');
    writeFileSync(file, 'SELECT abalance FROM pgbench_accounts WHERE aid = 1 / 0;\n');
    const r = cli('workload', 'run', '--url', server.url(), file, '--transactions', '20', '--warmup-transactions', '0', '--json');
    assert.notEqual(r.code, 0);
    assert.match(r.err, /no transaction of the workload completed \(\d+ failed; the first: division by zero\)/);
  });

  test('run: SIGTERM stops the statements running now and ends the run within seconds, not after them; nothing is left running', async () => {
    const file = join(dir, 'slow.sql');
    writeFileSync(file, 'SELECT pg_sleep(20), count(*) FROM pgbench_branches;\n');
    const { child, done } = cliAsync(['workload', 'run', '--url', server.url(), file, '--sessions', '2', '--warmup', '0', '--duration', '60']);
    // Ready once both sessions sleep on the server: polled, never a fixed wait.
    const sleeping = async () =>
      ((await query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(20)%' AND state = 'active'")) as Array<{ n: number }>)[0]
        .n >= 2;
    assert.ok(await waitUntil(sleeping, 300, 100), 'the sessions never started');
    const sent = Date.now();
    child.kill('SIGTERM');
    const r = await done;
    assert.ok(Date.now() - sent < 3000, `ended ${Date.now() - sent} ms after the signal`);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /cancelled/);
    assert.ok(await waitUntil(async () => !(await sleeping()), 50, 100), 'a statement was left running');
  });

  test('a statement the model cannot reduce is named as not modelled, and the curve says it covers the others', () => {
    const mix = join(dir, 'mix.sql');
    writeFileSync(
      mix,
      '\\set aid random(1, 100000 * :scale)\n-- bufferlens: weight 3\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n-- bufferlens: weight 1\nSELECT count(*) FROM pgbench_accounts a JOIN pgbench_branches b USING (bid) WHERE a.aid = :aid;\n',
    );
    const r = cli('workload', 'predict', '--url', server.url(), mix, '--json');
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out) as WorkloadReport;
    assert.deepEqual(
      report.scripts.map((s) => s.weight),
      [3, 1],
    );
    assert.equal(report.statements[0].notModelled, undefined);
    assert.match(report.statements[1].notModelled ?? '', /not modelled/);
    assert.match(report.notes[0], /1 of 2 statements are not modelled/);
    const at = report.curve.find((p) => p.current)!;
    assert.equal(at.statements[1], null);
  });

  test("from-stats: the server's top statements by calls become a weighted workload, parameters over their columns' ranges", async () => {
    await query('SELECT pg_stat_statements_reset()');
    for (let i = 1; i <= 30; i++) await query(`SELECT abalance FROM pgbench_accounts WHERE aid = ${i * 1000}`);
    for (let i = 1; i <= 10; i++) await query(`SELECT count(*) FROM pgbench_accounts WHERE aid BETWEEN ${i * 100} AND ${i * 100 + 50}`);
    await query('SELECT count(*) FROM pgbench_history WHERE delta > 5');
    const file = join(dir, 'from-stats.sql');
    const r = cli('workload', 'from-stats', '--url', server.url(), '--top', '5', '--out', file);
    assert.equal(r.code, 0, r.err);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /-- bufferlens: weight 30\n\\set s\d_p1 random\(1, 200000\)\nSELECT abalance FROM pgbench_accounts WHERE aid = :s\d_p1;/);
    assert.match(
      text,
      /-- bufferlens: weight 10\n\\set s\d_p1 random\(1, 200000\)\n\\set s\d_p2 random\(1, 200000\)\nSELECT count\(\*\) FROM pgbench_accounts WHERE aid BETWEEN :s\d_p1 AND :s\d_p2;/,
    );
    assert.match(text, /left out \(pgbench_history.delta is not a numeric column with an index/);
    // A monitoring call is no statement of the workload: not even listed as left out.
    assert.doesNotMatch(text, /pg_stat_statements_reset/);
    // The written workload predicts as any other.
    const p = cli('workload', 'predict', '--url', server.url(), file, '--json');
    assert.equal(p.code, 0, p.err);
    const report = JSON.parse(p.out) as WorkloadReport;
    assert.deepEqual(
      report.scripts
        .map((s) => s.weight)
        .sort((a, b) => b - a)
        .slice(0, 2),
      [30, 10],
    );
  });

  test('from-stats without pg_stat_statements says what to set up', async () => {
    await query('DROP EXTENSION pg_stat_statements');
    try {
      const r = cli('workload', 'from-stats', '--url', server.url());
      assert.equal(r.code, 2);
      assert.match(r.err, /shared_preload_libraries = 'pg_stat_statements' and CREATE EXTENSION pg_stat_statements/);
    } finally {
      await query('CREATE EXTENSION pg_stat_statements');
    }
  });
});
