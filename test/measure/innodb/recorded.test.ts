// MySQL paths tested over recorded server answers: no MySQL 8 server can be installed on these machines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { atLeast, parseProduct } from '../../../src/measure/innodb/server-info';
import { normaliseInnodb, subtractCalibration } from '../../../src/measure/innodb/normalise';
import { ibufMetricsAdvice, innodbDelta, parseSnapshot, snapshotQuery } from '../../../src/measure/innodb/counters';
import { parseInnodbPlan } from '../../../src/predict/innodb/plan';
import { checkInnodbStatement } from '../../../src/sql/classify/mysql-kind';
import { writtenTables } from '../../../src/sql/classify/classify';

test('product and release from VERSION() and @@version_comment', () => {
  assert.deepEqual(parseProduct('8.4.11', 'MySQL Community Server - GPL'), { product: 'mysql', release: [8, 4, 11] });
  assert.deepEqual(parseProduct('10.11.19-MariaDB-0+deb12u1', 'Debian 12'), { product: 'mariadb', release: [10, 11, 19] });
  assert.deepEqual(parseProduct('8.0.40-31', 'Percona Server (GPL), Release 31'), { product: 'mysql', release: [8, 0, 40] });
  assert.equal(parseProduct('11.4.2-MariaDB', 'mariadb.org binary distribution').product, 'mariadb');
  assert.ok(atLeast([8, 0, 18], 8, 0, 18));
  assert.ok(!atLeast([8, 0, 17], 8, 0, 18));
  assert.ok(atLeast([9, 1, 0], 8, 0, 18));
});

test('MySQL snapshots read performance_schema and enabled INNODB_METRICS; MariaDB information_schema', () => {
  const my = snapshotQuery('performance_schema.global_status', 'mysql');
  assert.match(my, /FROM performance_schema\.global_status WHERE VARIABLE_NAME IN \('Innodb_buffer_pool_read_requests'/);
  assert.match(my, /STATUS = 'enabled'/);
  const maria = snapshotQuery('information_schema.GLOBAL_STATUS', 'mariadb');
  assert.match(maria, /'INNODB_BUFFER_POOL_READ_REQUESTS'/);
  assert.match(maria, /ENABLED = 1/);
});

test('seed 001 on MySQL 8.4 (recorded deltas): 7,463 logical, 96 physical, 3,449 read-ahead', () => {
  const before = parseSnapshot([
    { name: 'Innodb_buffer_pool_read_requests', value: '1000' },
    { name: 'Innodb_buffer_pool_reads', value: '500' },
    { name: 'Innodb_buffer_pool_read_ahead', value: '10' },
    { name: 'Innodb_buffer_pool_read_ahead_rnd', value: '0' },
  ]);
  const after = parseSnapshot([
    { name: 'Innodb_buffer_pool_read_requests', value: '8463' },
    { name: 'Innodb_buffer_pool_reads', value: '596' },
    { name: 'Innodb_buffer_pool_read_ahead', value: '3459' },
    { name: 'Innodb_buffer_pool_read_ahead_rnd', value: '0' },
  ]);
  const { measured } = normaliseInnodb('mysql', innodbDelta(before, after));
  assert.deepEqual(measured, { logicalReads: 7463, physicalReads: 96, readAhead: 3449 });
});

test('MariaDB counts read-ahead inside _reads; MySQL counts random read-ahead in both', () => {
  const maria = normaliseInnodb('mariadb', {
    Innodb_buffer_pool_read_requests: 3576,
    Innodb_buffer_pool_reads: 3617,
    Innodb_buffer_pool_read_ahead: 3520,
    Innodb_buffer_pool_read_ahead_rnd: 0,
  });
  assert.deepEqual(maria.measured, { logicalReads: 3576, physicalReads: 97, readAhead: 3520 });
  const mysqlRandom = normaliseInnodb('mysql', {
    Innodb_buffer_pool_read_requests: 900,
    Innodb_buffer_pool_reads: 150,
    Innodb_buffer_pool_read_ahead: 100,
    Innodb_buffer_pool_read_ahead_rnd: 50,
  });
  assert.deepEqual(mysqlRandom.measured, { logicalReads: 900, physicalReads: 100, readAhead: 150 });
  const missing = normaliseInnodb('mysql', { Innodb_buffer_pool_read_requests: 5 });
  assert.deepEqual(missing.measured, { logicalReads: 5, physicalReads: null, readAhead: null });
});

test("calibration subtracts the snapshots' own cost, never below zero", () => {
  assert.deepEqual(
    subtractCalibration(
      { Innodb_buffer_pool_read_requests: 10, Innodb_buffer_pool_reads: 0 },
      { Innodb_buffer_pool_read_requests: 3, Innodb_buffer_pool_reads: 1 },
    ),
    {
      Innodb_buffer_pool_read_requests: 7,
      Innodb_buffer_pool_reads: 0,
    },
  );
});

test('ibuf metrics: advice only when the module is off', () => {
  assert.match(ibufMetricsAdvice({ Innodb_buffer_pool_reads: 1 }) ?? '', /innodb_monitor_enable = 'module_ibuf_system'/);
  assert.equal(ibufMetricsAdvice({ 'metric.ibuf_merges': 0 }), undefined);
});

test('MariaDB ANALYZE FORMAT=JSON: r_engine_stats per table, derived tables left out', () => {
  const doc = {
    query_block: {
      nested_loop: [
        {
          table: { table_name: 't', r_engine_stats: { pages_accessed: 3574, pages_read_count: 97, pages_prefetch_read_count: 3520, pages_read_time_ms: 12.5 } },
        },
        {
          table: {
            table_name: '<derived2>',
            materialized: { query_block: { nested_loop: [{ table: { table_name: 'u', r_engine_stats: { pages_accessed: 4 } } }] } },
          },
        },
      ],
    },
  };
  assert.deepEqual(parseInnodbPlan(doc).engineStats, [
    { table: 't', pagesAccessed: 3574, pagesUpdated: 0, pagesReadCount: 97, pagesPrefetchReadCount: 3520, pagesReadTimeMs: 12.5 },
    { table: 'u', pagesAccessed: 4, pagesUpdated: 0, pagesReadCount: 0, pagesPrefetchReadCount: 0, pagesReadTimeMs: 0 },
  ]);
  assert.deepEqual(parseInnodbPlan(doc).tables, ['t', 'u']);
});

test('MySQL EXPLAIN ANALYZE (recorded 8.4 answer) is kept as the engine plan text', () => {
  const text = readFileSync('test/fixtures/mysql/mysql-8.4-explain-analyze.txt', 'utf8');
  assert.match(text, /Table scan on buffer_pool_test .*actual time=2\.41\.\.197 rows=100000 loops=1/);
});

test('statement checks: implicit commits and procedures refused, DML found, written table named', () => {
  for (const s of ['ALTER TABLE t ADD c INT', 'TRUNCATE t', 'LOCK TABLES t WRITE', 'CREATE INDEX i ON t (a)', 'DROP TABLE t', 'RENAME TABLE a TO b']) {
    const c = checkInnodbStatement(s, false);
    assert.ok(!c.ok && c.kind === 'refused' && /^[A-Z ]+ commits implicitly/.test(c.reason), s);
  }
  assert.ok(!checkInnodbStatement('CALL p()', false).ok);
  const dml = checkInnodbStatement('/* c */ UPDATE t SET a = 1; SELECT 2', false);
  assert.ok(dml.ok && dml.kind === 'dml' && dml.statement === 'UPDATE t SET a = 1' && dml.warnings.length === 1);
  assert.ok(checkInnodbStatement('ALTER TABLE t ADD c INT', true).ok, '--commit allows it');
  assert.deepEqual(writtenTables('INSERT IGNORE INTO `lab`.`t` SELECT 1', 'mysql'), ['lab.t']);
  assert.deepEqual(writtenTables('DELETE LOW_PRIORITY FROM t WHERE 1', 'mysql'), ['t']);
  assert.deepEqual(writtenTables('SELECT 1', 'mysql'), []);
});
