// Run 1 of a statement an earlier measurement found wholly cached: the pages the model places by guess take
// the starting places of cached pages of the same relation that run 1 does not request. Pure swaps, then on
// real servers: lookups of random UUID keys (PostgreSQL: a join from a list of them; MariaDB: an IN list)
// measured after a restart, again with the first report, and a third time without it. Run 1 read nothing
// the second and third time; without the report the model's guessed leaves are predicted as reads (110 on
// PostgreSQL, 57 on MariaDB, when this was written), with it none.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { recordRequests, seedSwaps } from '../../src/predict/cached-statement';
import { LocalPostgres, type PostgresBinaries } from '../../src/local-server/postgres';
import { LocalInnodbServer } from '../../src/local-server/mariadb';
import { mariadb, need, skipUnless, systemPostgres, type Availability } from '../support/engines';
import { mariadbQuery, pgQuery } from '../support/sql';
import { measurePg } from '../support/pg-lab';
import { measure } from '../../src/measure/measure';
import { parseConnectionUrl } from '../../src/db/connection-url';
import type { Report } from '../../src/shared/report';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('a page read takes the place of the most recent cached page of its relation that run 1 does not request, else an other page', () => {
  const relationOf = (p: number) => (p < 2000 ? Math.floor(p / 1000) : -1);
  // Head first: relation 0's 10, 11, 12; relation 1's 1010; other pages 5000, 5001.
  const start = [10, 1010, 11, 5000, 12, 5001];
  const pool = { access: (p: number) => start.includes(p) };
  const log = recordRequests(pool, 'access');
  for (const p of [11, 20, 21, 22, 1020, 3000, 20]) pool.access(p);
  assert.deepEqual(log.read, [20, 21, 22, 1020, 3000]);
  assert.deepEqual(
    [...log.requested].sort((a, b) => a - b),
    [11, 20, 21, 22, 1020, 3000],
  );
  const swaps = seedSwaps(start, log, relationOf, (p) => start.includes(p));
  // 20 and 21 take 10 and 12 (11 is requested); 22 finds none of relation 0 left and takes an other page.
  assert.deepEqual(
    [...swaps.entries()].sort((a, b) => a[0] - b[0]),
    [
      [10, 20],
      [12, 21],
      [1010, 1020],
      [5000, 22],
      [5001, 3000],
    ],
  );
});

const KEYS = 60;

function inList(keys: string[]): string {
  return `SELECT sum(length(pad)) FROM u WHERE id IN (${keys.map((k) => `'${k}'`).join(', ')})`;
}

/** A nested loop: one lookup of u's primary key per listed key. */
function joinOfKeys(keys: string[]): string {
  return `SELECT sum(length(u.pad)) FROM (VALUES ${keys.map((k) => `('${k}'::uuid)`).join(', ')}) AS k(id) JOIN u ON u.id = k.id`;
}

function assertRunOne(again: Report, without: Report): void {
  assert.equal(again.runs[0].measured.physicalReads, 0, 'the premise: run 1 of the second measurement read nothing');
  assert.ok((without.runs[0].predicted.physicalReads ?? 0) >= 5, `the premise: guessed pages predicted as reads (${without.runs[0].predicted.physicalReads})`);
  assert.equal(again.runs[0].predicted.physicalReads, 0);
  assert.equal(again.runs[0].predicted.readAhead ?? 0, 0);
  assert.match(again.runs[0].prediction!.assumptions.join('\n'), /run 1 finds every page it requests cached: the same statement measured at/);
  assert.equal(again.runs[0].predicted.logicalReads, without.runs[0].predicted.logicalReads, 'the requests are the same');
}

describe('re-measured with the earlier report: PostgreSQL', skipUnless(systemPostgres() as Availability<PostgresBinaries>), () => {
  test('run 1 predicted to read nothing, as measured', async () => {
    const server = await LocalPostgres.start({ binaries: need(systemPostgres()), settings: { shared_buffers: '16MB', autovacuum: false } });
    try {
      await pgQuery(server.url(), 'CREATE TABLE u (id uuid PRIMARY KEY, pad text NOT NULL)');
      await pgQuery(server.url(), "INSERT INTO u SELECT md5(g::text || 'u')::uuid, repeat('x', 150) FROM generate_series(1, 80000) g");
      await pgQuery(server.url(), 'VACUUM ANALYZE u');
      const keys = (await pgQuery<{ id: string }>(server.url(), `SELECT id FROM u ORDER BY md5(id::text || 'k') LIMIT ${KEYS}`)).map((r) => r.id);
      await server.restart();
      const sql = joinOfKeys(keys);
      const first = await measurePg(server, sql, { createExtension: true });
      const again = await measurePg(server, sql, { createExtension: true, earlier: first });
      const without = await measurePg(server, sql, { createExtension: true });
      assertRunOne(again, without);
      // The command line takes the earlier report as a file.
      const file = join(mkdtempSync(join(tmpdir(), 'bufferlens-earlier-')), 'first.json');
      writeFileSync(file, JSON.stringify(first));
      const r = spawnSync(process.execPath, ['dist/cli.js', 'measure', '--url', server.url(), '--json', '--no-what-if', '--earlier', file, '--sql', sql], {
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      const viaCli = JSON.parse(r.stdout) as Report;
      assert.equal(viaCli.runs[0].predicted.physicalReads, 0);
      assert.match(viaCli.runs[0].prediction!.assumptions.join('\n'), /run 1 finds every page it requests cached/);
    } finally {
      await server.stop();
    }
  });
});

describe('re-measured with the earlier report: MariaDB', skipUnless(mariadb()), () => {
  test('run 1 predicted to read nothing, as measured', async () => {
    const server = await LocalInnodbServer.start({ binaries: need(mariadb()), settings: { 'innodb-buffer-pool-size': '8M' } });
    try {
      for (const q of [
        'CREATE DATABASE lab',
        'CREATE TABLE lab.u (id CHAR(32) NOT NULL PRIMARY KEY, pad CHAR(150) NOT NULL) ENGINE=InnoDB',
        "INSERT INTO lab.u SELECT md5(CONCAT(seq, 'u')), REPEAT('x', 150) FROM lab.seq_1_to_80000",
        'ANALYZE TABLE lab.u',
      ])
        await mariadbQuery(server.port, q);
      const keys = (await mariadbQuery<{ id: string }>(server.port, `SELECT id FROM lab.u ORDER BY md5(CONCAT(id, 'k')) LIMIT ${KEYS}`)).map((r) => r.id);
      await server.restart();
      const sql = inList(keys);
      const url = parseConnectionUrl(server.url('lab'));
      const once = (earlier?: Report) =>
        measure(url, { sql, runs: 3, cold: 'no', commit: false, timing: false, timeoutMs: 60_000, whatIf: false, ...(earlier ? { earlier } : {}) });
      const first = await once();
      const again = await once(first);
      const without = await once();
      assertRunOne(again, without);
    } finally {
      await server.stop();
    }
  });
});
