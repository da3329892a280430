// The INSERT … SELECT parts asked again after the runs: the target, its column list and the query; any other
// statement, or one whose tail would not parse inside a subquery, is not asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { insertSelectParts } from '../../../src/measure/postgres/appended-keys';

test('an INSERT … SELECT gives its target, columns and query', () => {
  assert.deepEqual(insertSelectParts('INSERT INTO orders (id, "Placed") SELECT id + 1, placed FROM orders WHERE id < 10;'), {
    table: 'orders',
    columns: ['id', '"Placed"'],
    query: 'SELECT id + 1, placed FROM orders WHERE id < 10',
  });
  assert.deepEqual(insertSelectParts('insert into public.t with x as (select 1 a) select a from x'), {
    table: 'public.t',
    columns: undefined,
    query: 'with x as (select 1 a) select a from x',
  });
});

test('other statements and tails that would not parse in a subquery are not asked', () => {
  assert.equal(insertSelectParts('INSERT INTO t (a) VALUES (1)'), undefined);
  assert.equal(insertSelectParts('SELECT 1'), undefined);
  assert.equal(insertSelectParts('INSERT INTO t (a) SELECT a FROM s ON CONFLICT DO NOTHING'), undefined);
  assert.equal(insertSelectParts('INSERT INTO t (a) SELECT a FROM s RETURNING a'), undefined);
  // A keyword inside a string is not the statement's.
  assert.deepEqual(insertSelectParts("INSERT INTO t (a) SELECT 'RETURNING' FROM s")?.query, "SELECT 'RETURNING' FROM s");
});
