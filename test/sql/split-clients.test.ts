// The reference for splitting is the engines' own clients: a file splits exactly as psql and the
// mariadb client send it to the server, read back from the servers' own statement logs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { LocalPostgres } from '../../src/local-server/postgres';
import { LocalInnodbServer } from '../../src/local-server/mariadb';
import { splitPostgres } from '../../src/sql/split-postgres';
import { splitMysql } from '../../src/sql/split-mysql';
import { mariadb, need, skipUnless, systemPostgres } from '../support/engines';
import { SeededRandom } from '../../src/sim/random';

const pgFixture = readFileSync('test/fixtures/split/postgresql.sql', 'utf8');
const myFixture = readFileSync('test/fixtures/split/mysql.sql', 'utf8');

const pg = systemPostgres();
describe('PostgreSQL splitting equals psql', skipUnless(pg), () => {
  let server: LocalPostgres;
  before(async () => {
    server = await LocalPostgres.start({ binaries: need(pg), settings: { log_statement: 'all', log_line_prefix: '@@@ ' } });
  });
  after(async () => server?.stop());

  /** What psql sends for a file, statement by statement, read back from the server's statement log. */
  const psqlSends = (input: string): string[] => {
    const psql = join(need(pg).binDir, 'psql');
    const logStart = readFileSync(server.logFile, 'utf8').length;
    execFileSync(psql, ['-X', '-q', '-h', '127.0.0.1', '-p', String(server.port), '-U', 'postgres', '-d', 'postgres', '-f', '-'], {
      input,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    return readFileSync(server.logFile, 'utf8')
      .slice(logStart)
      .split(/^@@@ /m)
      .map((entry) => /^LOG:\s+statement: ([\s\S]*)$/.exec(entry.trimEnd())?.[1])
      .filter((s): s is string => s !== undefined)
      .map((s) => s.replace(/\n\t/g, '\n').replace(/;\s*$/, ''));
  };
  // psql leaves out blank lines.
  const ours = (input: string) => splitPostgres(input).map((s) => s.sql.replace(/\n\s*\n/g, '\n'));

  test('every statement, text for text (psql leaves out blank lines)', () => {
    assert.deepEqual(ours(pgFixture), psqlSends(pgFixture));
  });

  test('generated input (quotes, dollar bodies, comments, SQL-standard function bodies) splits as psql splits it', () => {
    const input = generatedPostgres(new SeededRandom(2026), 160);
    assert.equal(ours(input).length, 160);
    assert.deepEqual(ours(input), psqlSends(input));
  });
});

/** Valid statements built from the pieces splitting gets wrong, joined by random blanks and comments. */
function generatedPostgres(rnd: SeededRandom, count: number): string {
  const pick = <T>(xs: T[]) => xs[rnd.int(xs.length)];
  const gap = () => pick([' ', '\n', '  ', ' /* ; */ ', '\n-- a comment; with a semicolon\n', ' /* nested /* ; */ ; */ ']);
  let k = 0;
  const pieces: Array<() => string> = [
    () => `SELECT 'a;b'${gap()}AS x`,
    () => `SELECT $$;$$ AS y`,
    () => `SELECT $q$ ; $$ ; $q$ AS z`,
    () => `SELECT E'\\';' AS e`,
    () => `SELECT "a;b" FROM (SELECT 1 AS "a;b") s`,
    () => `SELECT (1${gap()}+ 2)`,
    () => `CREATE OR REPLACE FUNCTION gen_${k++}() RETURNS int LANGUAGE sql${gap()}BEGIN ATOMIC SELECT 1; SELECT CASE WHEN true THEN 2 END; END`,
    () => `CREATE PROCEDURE gen_p${k++}() LANGUAGE sql BEGIN ATOMIC SELECT 1;${gap()}END`,
    () => `CREATE FUNCTION gen_d${k++}() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$`,
    () => `SELECT CASE WHEN 1 = 1 THEN 'end;' END`,
  ];
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(pick(pieces)() + ';' + gap());
  return out.join('');
}

const my = mariadb();
describe('MySQL/MariaDB splitting equals the mariadb client', skipUnless(my), () => {
  let server: LocalInnodbServer;
  before(async () => {
    server = await LocalInnodbServer.start({ binaries: need(my), settings: { 'innodb-buffer-pool-size': '16M', 'general-log': true } });
  });
  after(async () => server?.stop());

  // The client strips "--", "#" and /* */ comments and blank edges from what it sends, and the mariadb client
  // also optimizer hints (MariaDB ignores them; MySQL's client keeps them): normalise ours the same way.
  const strip = (s: string) =>
    s
      .replace(/(^|\s)(#|-- )[^\n]*/g, '$1')
      .replace(/\/\*\+.*?\*\//g, '')
      // and plain /* */ comments; /*! … */ is code and stays
      .replace(/\/\*(?![!+])[\s\S]*?\*\//g, '')
      .trim();

  /** What the mariadb client sends for a file into database s, read back from the general log. */
  const clientSends = (input: string): string[] => {
    const logFile = join(server.dir, 'data', `${hostname().split('.')[0]}.log`);
    const logStart = readFileSync(logFile, 'utf8').length;
    execFileSync('mariadb', ['--no-defaults', '-h', '127.0.0.1', '-P', String(server.port), '-u', 'root', '--force', 's'], {
      input,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    chmodSync(logFile, 0o644);
    // General log entries: "<time?>\t<id> Query\t<text>", continuation lines verbatim.
    const sent: string[] = [];
    let current: string[] | undefined;
    for (const line of readFileSync(logFile, 'utf8').slice(logStart).split('\n')) {
      const m = /^(?:\d{6}\s+[\d:]+)?\s*\t?\s*\d+\s(\w[\w ]*?)\t(.*)$/.exec(line);
      if (m) {
        if (current) sent.push(current.join('\n'));
        current = m[1] === 'Query' ? [m[2]] : undefined;
      } else if (current) current.push(line);
    }
    if (current) sent.push(current.join('\n'));
    return sent.map((x) => x.trimEnd()).filter((x) => !/^select @@version_comment|^SELECT DATABASE\(\)|^show /i.test(x));
  };
  const ours = (input: string) => splitMysql(input).map((x) => strip(x.sql));

  test('every statement, text for text (comments stripped as the client does)', () => {
    execFileSync('mariadb', ['--no-defaults', '-h', '127.0.0.1', '-P', String(server.port), '-u', 'root', '--force', '-e', 'CREATE DATABASE s']);
    chmodSync(join(server.dir, 'data', `${hostname().split('.')[0]}.log`), 0o644);
    assert.deepEqual(ours(myFixture), clientSends(myFixture));
  });

  test('generated input (quotes with escapes, backticks, comments, DELIMITER) splits as the mariadb client splits it', () => {
    const input = generatedMysql(new SeededRandom(2026), 120);
    assert.ok(ours(input).length >= 120);
    assert.deepEqual(ours(input), clientSends(input));
  });
});

/** Statements built from the pieces MySQL splitting gets wrong, joined by random blanks and comments. */
function generatedMysql(rnd: SeededRandom, count: number): string {
  const pick = <T>(xs: T[]) => xs[rnd.int(xs.length)];
  const gap = () => pick([' ', '\n', ' /* ; */ ', '\n# hash comment; here\n', '\n-- dash comment; here\n']);
  let k = 0;
  const pieces: Array<() => string> = [
    () => `SELECT 'a;b' AS x;`,
    () => `SELECT 'it\\'s; fine' AS y;`,
    () => `SELECT "double; quoted" AS z;`,
    () => `SELECT 1 AS \`odd;name\`;`,
    () => `SELECT (1${gap()}+ 2) AS s;`,
    () => `SELECT 1 /*! + 1 */ AS v;`,
    // DELIMITER as it is written: on a line of its own.
    () => `\nDELIMITER //\nCREATE PROCEDURE gen_${k++}() BEGIN SELECT 1; SELECT 'x;y'; END//\nDELIMITER ;\n`,
    () => `\nDELIMITER $$\nSELECT 2 AS d$$\nDELIMITER ;\n`,
  ];
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(pick(pieces)() + gap());
  return out.join('');
}
