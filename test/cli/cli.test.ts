// The CLI is tested by running the built program, as users and outside tools do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { statSync, readFileSync } from 'node:fs';
import { parseWhatIf } from '../../src/cli/commands';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['dist/cli.js', ...args], { encoding: 'utf8', env: { ...process.env, PGPASSWORD: '', MYSQL_PWD: '' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('the built CLI is executable with a shebang', () => {
  assert.ok(readFileSync('dist/cli.js', 'utf8').startsWith('#!/usr/bin/env node\n'));
  assert.ok(statSync('dist/cli.js').mode & 0o100);
});

test('--help lists every contract command', () => {
  const r = cli('--help');
  assert.equal(r.code, 0);
  for (const c of ['measure', 'split', 'report', 'bench', 'demo', 'simulate']) assert.match(r.out, new RegExp(`^  ${c} `, 'm'));
});

test('per-command help shows the contract form', () => {
  const r = cli('measure', '--help');
  assert.equal(r.code, 0);
  assert.match(r.out, /bufferlens measure --url URL \[--runs N\] \[--cold/);
});

const usageErrors: Array<[string, string[], RegExp]> = [
  ['no command', [], /Usage: bufferlens/],
  ['unknown command', ['frobnicate'], /unknown command "frobnicate"/],
  ['unknown flag', ['measure', '--url', 'postgres://u@h/db', '--sql', 'select 1', '--bogus'], /Unknown option '--bogus'/],
  ['missing url', ['measure', '--sql', 'select 1'], /missing --url/],
  ['bad url', ['measure', '--url', 'not a url', '--sql', 'select 1'], /not a URL/],
  ['bad scheme', ['measure', '--url', 'oracle://u@h/db', '--sql', 'select 1'], /unsupported URL scheme/],
  ['bad port', ['measure', '--url', 'postgres://u@h:99999/db', '--sql', 'select 1'], /not a URL|bad port/],
  ['missing statement', ['measure', '--url', 'postgres://u@h/db'], /missing the statement/],
  ['both sql and file', ['measure', '--url', 'postgres://u@h/db', '--sql', 'x', 'f.sql'], /either --sql TEXT or FILE/],
  [
    'earlier not a report',
    ['measure', '--url', 'postgres://u@h/db', '--sql', 'x', '--earlier', 'package.json'],
    /--earlier: package.json is not a measurement report/,
  ],
  ['earlier missing', ['measure', '--url', 'postgres://u@h/db', '--sql', 'x', '--earlier', 'no-such.json'], /--earlier: no-such.json is not a JSON report/],
  ['bad runs', ['measure', '--url', 'postgres://u@h/db', '--sql', 'x', '--runs', 'zero'], /--runs takes a whole number/],
  ['unreadable file', ['measure', '--url', 'postgres://u@h/db', '/nonexistent/x.sql'], /cannot read \/nonexistent\/x.sql: ENOENT/],
  ['split without dialect', ['split', 'x.sql'], /--dialect must be postgresql or mysql/],
  ['report without --html', ['report', 'r.json'], /missing --html/],
  ['simulate with a bad model', ['simulate', '--model', 'arc', '--pool', '10', '--trace', 't'], /--model must be/],
  ['bench with an argument', ['bench', 'extra'], /unexpected argument: extra/],
];

for (const [what, args, message] of usageErrors) {
  test(`usage error exits 2 with one line: ${what}`, () => {
    const r = cli(...args);
    assert.equal(r.code, 2, r.err);
    if (args.length === 0) {
      assert.match(r.out, message);
    } else {
      assert.match(r.err, message);
      assert.equal(r.err.trim().split('\n').length, 1, r.err);
      assert.equal(r.out, '');
    }
  });
}

test('a password in a bad URL is never echoed', () => {
  const r = cli('measure', '--url', 'oracle://me:s3cret@h/db', '--sql', 'select 1');
  assert.equal(r.code, 2);
  assert.doesNotMatch(r.err, /s3cret/);
});

test('--what-if takes pool sizes; anything else is a usage error', () => {
  assert.deepEqual(parseWhatIf('pool=64MB,1GB,512kB'), [64 * 1048576, 1073741824, 512 * 1024]);
  const r = cli('measure', '--url', 'postgres://u@h/db', '--sql', 'select 1', '--what-if', 'pool=lots');
  assert.equal(r.code, 2);
  assert.match(r.err, /"lots" is not a size/);
});

test('split --json gives each statement with 0-based positions, as the CodeLens does', () => {
  const r = cli('split', '--dialect', 'mysql', '--json', 'test/fixtures/split/mysql.sql');
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out);
  assert.equal(out.length, 9);
  assert.deepEqual(out[0], { sql: 'select 1 as a', start: { line: 1, character: 0 }, end: { line: 1, character: 13 } });
  assert.ok(out.some((s: { sql: string }) => s.sql === 'create procedure p() begin select 1; select 2; end'));
});
