// The keys an index scan starts at, read from its index condition as EXPLAIN prints it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arrayKeyCount, arrayKeys, firstKey } from '../../../src/predict/postgres/key-bounds';

test('an = ANY array gives its keys sorted and distinct, for its column only; anything else gives none', () => {
  assert.deepEqual(arrayKeys("(t.id = ANY ('{500,5,5000,5}'::integer[]))", 'id'), [5, 500, 5000]);
  assert.deepEqual(arrayKeys("(id = ANY ('{-3,7}'::bigint[]))", 'id'), [-3, 7]);
  assert.equal(arrayKeys("(t.id = ANY ('{5,500}'::integer[]))", 'v'), undefined);
  assert.equal(arrayKeys("(t.name = ANY ('{a,b}'::text[]))", 'name'), undefined);
  assert.equal(arrayKeys('((t.id >= 1) AND (t.id <= 9))', 'id'), undefined);
  assert.equal(firstKey('((t.id >= 100) AND (t.id <= 199))', 'id', true), 199);
});

test('an = ANY array of keys of any type gives how many distinct keys it holds', () => {
  assert.equal(arrayKeyCount("(u.id = ANY ('{b826a7d0-19eb-2155-0f8a-425c7082c964,c826a7d0-19eb-2155-0f8a-425c7082c964}'::uuid[]))", 'id'), 2);
  assert.equal(arrayKeyCount(`(name = ANY ('{"a,b",c,O''Brien,c}'::text[]))`, 'name'), 3);
  assert.equal(arrayKeyCount("(v = ANY ('{x,y}'::character varying[]))", 'v'), 2);
  assert.equal(arrayKeyCount("(v = ANY ('{x,y}'::text[]))", 'w'), undefined);
  assert.equal(arrayKeyCount("(v = 'x'::text)", 'v'), undefined);
});
