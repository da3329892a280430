// What a rollback cannot undo, on a real PostgreSQL: files written, remote commits, replication slots,
// signalled sessions are refused before anything runs (unless acknowledged); hidden writes in reading
// statements fail in a read-only transaction; sequences that advance are named before and counted after.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgQuery as sql } from '../../support/sql';
import { LocalPostgres } from '../../../src/local-server/postgres';
import { need, skipUnless, systemPostgres } from '../../support/engines';
import { measure } from '../../../src/measure/measure';
import { parseConnectionUrl } from '../../../src/db/connection-url';
import type { MeasureOptions } from '../../../src/measure/options';

const availability = systemPostgres();

describe('PostgreSQL: effects outside the transaction', skipUnless(availability), () => {
  let server: LocalPostgres;
  let url: string;
  let files: string;
  const run = (statement: string, extra: Partial<MeasureOptions> = {}) =>
    measure(parseConnectionUrl(url), { sql: statement, runs: 2, cold: 'no', commit: false, timing: false, timeoutMs: 20_000, whatIf: false, ...extra });
  const count = async (q: string) => (await sql<{ n: number }>(url, q))[0].n;

  before(async () => {
    server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '16MB' } });
    url = server.url();
    files = mkdtempSync(join(tmpdir(), 'bufferlens-fx-'));
    for (const s of [
      'CREATE EXTENSION dblink',
      'CREATE EXTENSION pg_buffercache',
      'CREATE TABLE t (id int PRIMARY KEY, v int)',
      'INSERT INTO t SELECT g, g FROM generate_series(1, 1000) g',
      'CREATE TABLE log (id serial PRIMARY KEY, note text)',
      'CREATE SEQUENCE s',
      `CREATE FUNCTION remote_insert() RETURNS int LANGUAGE sql AS $$ SELECT dblink_exec('dbname=postgres port=${new URL(url).port} host=127.0.0.1 user=${new URL(url).username}', 'INSERT INTO log (note) VALUES (''remote'')') IS NOT NULL::int $$`,
      `CREATE FUNCTION dump(path text) RETURNS int LANGUAGE plpgsql AS $$ BEGIN COPY (SELECT 1) TO '/dev/null'; RETURN 1; END $$`,
      `CREATE FUNCTION dump_program() RETURNS int LANGUAGE plpgsql AS $$ BEGIN COPY (SELECT 1) TO PROGRAM 'cat > /dev/null'; RETURN 1; END $$`,
      `CREATE FUNCTION hidden_write() RETURNS int LANGUAGE plpgsql AS $$ BEGIN INSERT INTO log (note) VALUES ('hidden'); RETURN 1; END $$`,
      `CREATE FUNCTION hidden_next() RETURNS bigint LANGUAGE sql AS $$ SELECT nextval('s') $$`,
      // Reach that names no function in the statement: an operator, a view, a rule, a policy, an aggregate.
      `CREATE FUNCTION remote_op(a int, b int) RETURNS int LANGUAGE sql AS $$ SELECT remote_insert() + a + b $$`,
      'CREATE OPERATOR ### (LEFTARG = int, RIGHTARG = int, FUNCTION = remote_op)',
      'CREATE VIEW remote_view AS SELECT id, remote_insert() AS r FROM t',
      'CREATE VIEW view_of_view AS SELECT id FROM remote_view',
      'CREATE TABLE ruled (id int PRIMARY KEY)',
      'CREATE RULE ruled_also AS ON INSERT TO ruled DO ALSO SELECT remote_insert()',
      'CREATE TABLE guarded (id int PRIMARY KEY)',
      'INSERT INTO guarded VALUES (1)',
      'ALTER TABLE guarded ENABLE ROW LEVEL SECURITY',
      'ALTER TABLE guarded FORCE ROW LEVEL SECURITY',
      'CREATE POLICY remote_policy ON guarded USING (remote_insert() IS NOT NULL)',
      `CREATE FUNCTION remote_step(acc int, x int) RETURNS int LANGUAGE sql AS $$ SELECT acc + x + remote_insert() $$`,
      'CREATE AGGREGATE remote_sum(int) (SFUNC = remote_step, STYPE = int, INITCOND = 0)',
      `CREATE FUNCTION remote_check(x int) RETURNS boolean LANGUAGE sql AS $$ SELECT remote_insert() IS NOT NULL OR x IS NULL $$`,
      'CREATE DOMAIN remote_int AS int CHECK (remote_check(VALUE))',
      'CREATE TABLE domained (id int PRIMARY KEY, v remote_int)',
      'CREATE TABLE checked (id int PRIMARY KEY, v int CHECK (remote_check(v)))',
      'CREATE TYPE remote_t AS (a int)',
      `CREATE FUNCTION to_remote(x int) RETURNS remote_t LANGUAGE sql AS $$ SELECT ROW(remote_insert() + x)::remote_t $$`,
      'CREATE CAST (int AS remote_t) WITH FUNCTION to_remote(int)',
    ]) {
      await sql(url, s);
    }
  });
  after(async () => {
    await server?.stop();
    rmSync(files, { recursive: true, force: true });
  });

  test('a function reaching dblink_exec is refused before anything runs; nothing is committed remotely', async () => {
    await assert.rejects(
      run('SELECT remote_insert()'),
      (err: Error) => /refused: (public\.)?dblink_exec runs SQL on another connection/.test(err.message) && /--allow-side-effects/.test(err.message),
    );
    assert.equal(await count('SELECT count(*)::int AS n FROM log'), 0);
  });

  for (const [what, statement] of [
    ['an operator whose function calls dblink', 'SELECT 1 ### 2'],
    ['a view whose query calls it', 'SELECT * FROM remote_view'],
    ['a view over such a view', 'SELECT count(*) FROM view_of_view'],
    ['a rule on the table written (DO ALSO)', 'INSERT INTO ruled VALUES (1)'],
    ['a row-level policy on the table read', 'SELECT * FROM guarded'],
    ["an aggregate's transition function", 'SELECT remote_sum(v) FROM t'],
    ["a domain's check on a column written", 'INSERT INTO domained VALUES (1, 1)'],
    ["a table's CHECK constraint", 'INSERT INTO checked VALUES (1, 1)'],
    ['a cast to a user type', 'SELECT 1::remote_t'],
  ]) {
    test(`reach through ${what} is refused before anything runs; nothing is committed remotely`, async () => {
      await assert.rejects(run(statement), /refused: (public\.)?dblink_exec runs SQL on another connection/);
      assert.equal(await count('SELECT count(*)::int AS n FROM log'), 0);
      assert.equal(await count('SELECT count(*)::int AS n FROM ruled'), 0);
      assert.equal(await count('SELECT ((SELECT count(*) FROM domained) + (SELECT count(*) FROM checked))::int AS n'), 0);
    });
  }

  test('COPY … TO a file or a program inside a function is refused', async () => {
    await assert.rejects(run(`SELECT dump('x')`), /refused: public\.dump runs COPY … TO/);
    await assert.rejects(run('SELECT dump_program()'), /refused: public\.dump_program runs COPY … TO/);
  });

  test('lo_export, replication slots and backend signals are refused, and nothing is left behind', async () => {
    const file = join(files, 'lo.bin');
    await assert.rejects(run(`SELECT lo_export(lo_from_bytea(0, 'x'), '${file}')`), /refused: lo_export reads or writes a file/);
    assert.equal(existsSync(file), false);
    await assert.rejects(
      run(`SELECT pg_create_physical_replication_slot('bl_slot')`),
      /refused: pg_create_physical_replication_slot changes replication state/,
    );
    assert.equal(await count('SELECT count(*)::int AS n FROM pg_replication_slots'), 0);
    await assert.rejects(run('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE false'), /refused: pg_terminate_backend signals another session/);
  });

  test('acknowledged, a refused statement is measured and the report says what it did', async () => {
    const report = await run('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE false', { allowSideEffects: true });
    assert.ok(report.warnings.some((w) => /measured although a rollback cannot undo it/.test(w)));
  });

  test("acknowledged, the consented effect runs once per run: BufferLens re-asks none of the statement's own text after the runs", async () => {
    const remote = () => count(`SELECT count(*)::int AS n FROM log WHERE note = 'remote'`);
    // A filter over an index range: it runs once per row of the range, a handful per run.
    const statement = 'SELECT v FROM t WHERE id BETWEEN 10 AND 14 AND remote_insert() IS NOT NULL';
    await sql(url, 'ANALYZE t');
    const start = await remote();
    const one = await run(statement, { allowSideEffects: true, runs: 1 });
    const afterOne = await remote();
    await run(statement, { allowSideEffects: true, runs: 2 });
    const afterTwo = await remote();
    // Each run calls it the same number of times; a query re-asked after the runs would add a constant.
    assert.ok(afterOne - start > 0);
    assert.equal(afterTwo - afterOne, 2 * (afterOne - start));
    assert.ok(
      one.warnings.some((w) => /asks after the runs from the statement's own text were not sent/.test(w)),
      one.warnings.join('\n'),
    );
    await sql(url, `DELETE FROM log WHERE note = 'remote'`);
  });

  test('a reading statement runs read-only: a write hidden in a function fails instead of happening', async () => {
    await assert.rejects(run('SELECT hidden_write()'), /read-only transaction/);
    await assert.rejects(run('SELECT hidden_next()'), /read-only transaction/);
    assert.equal(await count('SELECT count(*)::int AS n FROM log'), 0);
    assert.equal(await count(`SELECT coalesce(pg_sequence_last_value('s'), 0)::int AS n`), 0);
  });

  test('sequences a write advances are named before the runs and counted after; a table without one gets no warning', async () => {
    const report = await run(`INSERT INTO log (note) SELECT 'x' FROM generate_series(1, 10)`);
    assert.ok(
      report.warnings.some((w) => /sequence log_id_seq will advance/.test(w)),
      report.warnings.join('\n'),
    );
    assert.ok(
      report.warnings.some((w) => /sequence log_id_seq advanced by 20 over the runs/.test(w)),
      report.warnings.join('\n'),
    );
    const plain = await run('INSERT INTO t SELECT g + 5000, g FROM generate_series(1, 10) g');
    assert.ok(!plain.warnings.some((w) => /sequence/.test(w)), plain.warnings.join('\n'));
    const cte = await run(`WITH x AS (INSERT INTO log (note) VALUES ('y') RETURNING id) SELECT hidden_next(), id FROM x`);
    assert.ok(
      cte.warnings.some((w) => /sequences? .*\bs\b.*will advance/.test(w)),
      cte.warnings.join('\n'),
    );
    assert.ok(
      cte.warnings.some((w) => /user-defined routine public\.hidden_next/.test(w)),
      cte.warnings.join('\n'),
    );
  });

  test('measuring as a superuser is flagged, with where to find a least-privilege role', async () => {
    const report = await run('SELECT count(*) FROM t');
    assert.ok(
      report.warnings.some((w) => /measured as a superuser.*Test Connection prints the GRANTs/.test(w)),
      report.warnings.join('\n'),
    );
  });

  test('a rolled-back UPDATE says before the runs that dead versions stay, and after what it left per relation', async () => {
    const report = await run('UPDATE t SET v = v + 1 WHERE id <= 400');
    assert.ok(
      report.warnings.some((w) => /each rolled-back run leaves the row versions it wrote as dead tuples until VACUUM/.test(w)),
      report.warnings.join('\n'),
    );
    const left = report.warnings.find((w) => /rolled-back runs left behind/.test(w)) ?? '';
    // Two runs, 400 new row versions each, all dead after the rollbacks.
    assert.match(left, /public\.t|\bt: 800 more dead row versions/);
    assert.match(left, /800 more dead row versions/);
    const read = await run('SELECT count(*) FROM t');
    assert.ok(!read.warnings.some((w) => /left behind|dead tuples/.test(w)), 'a read leaves nothing and says nothing');
  });

  test("after a restart run 1 is cold: nothing sent before it touched the statement's pages (no plan-only EXPLAIN)", async () => {
    await server.restart();
    const report = await run('SELECT v FROM t WHERE id BETWEEN 100 AND 120');
    assert.equal(report.runs[0].cold, true, report.warnings.join('\n'));
    for (const rel of report.runs[0].residency) assert.equal(rel.cachedBefore, 0, rel.relation);
    // Run 1 read every page it needed itself: the index's metapage, root and leaf, and the heap page.
    assert.ok(report.runs[0].measured.physicalReads! >= 3, String(report.runs[0].measured.physicalReads));
    assert.deepEqual(report.runs[0].residency.map((r) => r.relation).sort(), ['t', 't_pkey']);
  });
});
