// Test Connection's least-privilege GRANTs: what BufferLens reads, and nothing broader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leastPrivilegeGrants } from '../../src/db/least-privilege';
import { splitPostgres } from '../../src/sql/split-postgres';
import { splitMysql } from '../../src/sql/split-mysql';

test('PostgreSQL: statistics, pg_buffercache through pg_monitor, SELECT on the tables; no superuser', () => {
  const sql = leastPrivilegeGrants('postgresql', 'shop');
  assert.match(sql, /GRANT pg_read_all_stats TO bufferlens_measure;/);
  assert.match(sql, /GRANT pg_monitor TO bufferlens_measure;/);
  assert.match(sql, /GRANT CONNECT ON DATABASE "shop"/);
  assert.doesNotMatch(sql, /SUPERUSER|ALL PRIVILEGES/);
  assert.ok(splitPostgres(sql).length >= 5);
});

test('MySQL/MariaDB: PROCESS, the index statistics and the database; no ALL PRIVILEGES', () => {
  const sql = leastPrivilegeGrants('mysql', 'lab');
  assert.match(sql, /GRANT PROCESS ON \*\.\*/);
  assert.match(sql, /GRANT SELECT ON mysql\.innodb_index_stats/);
  assert.match(sql, /GRANT SELECT ON `lab`\.\*/);
  assert.doesNotMatch(sql.replace(/^--.*$/gm, ''), /ALL PRIVILEGES|SUPER/);
  assert.ok(splitMysql(sql).length >= 4);
});
