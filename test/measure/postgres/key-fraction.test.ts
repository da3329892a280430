// Where an index scan starts along its index, from the leading column's statistics: the bound read from
// the plan's index condition, and the share below it as the planner estimates an inequality.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fractionBelow, leadingBound } from '../../../src/measure/postgres/key-fraction';

test("the leading column's first key, from EXPLAIN's index condition; the upper bound walking backward", () => {
  const cond = "((d >= '2020-02-01'::date) AND (d <= '2020-02-10'::date))";
  assert.equal(leadingBound(cond, 'd', false), '2020-02-01');
  assert.equal(leadingBound(cond, 'd', true), '2020-02-10');
  assert.equal(leadingBound('(id > 42)', 'id', false), '42');
  assert.equal(leadingBound("(name = 'O''Brien'::text)", 'name', false), "O'Brien");
  assert.equal(leadingBound("(o.k = 'x'::text)", 'k', false), 'x');
  // Another column, or a key from the outer side of a join, is not a literal bound.
  assert.equal(leadingBound('(other > 5)', 'id', false), undefined);
  assert.equal(leadingBound('(id = o.k)', 'id', false), undefined);
  assert.equal(leadingBound('(id = $1)', 'id', false), undefined);
});

test('the share below the key: common values below it, and the histogram share of the rest; nulls sort last', () => {
  // A histogram of 101 bounds, 16 of them below the key: mid-bucket, 15.5 % of the rows.
  assert.equal(fractionBelow({ nf: 0, mcv_below: 0, mcv_all: 0, hb: 16, hn: 101 }), 0.155);
  // Half the rows are common values, 0.2 of them below; the histogram holds the other 0.4 (0.1 are null).
  assert.ok(Math.abs(fractionBelow({ nf: 0.1, mcv_below: 0.2, mcv_all: 0.5, hb: 51, hn: 101 }) - (0.2 + 0.4 * 0.505)) < 1e-9);
  assert.equal(fractionBelow({ nf: 0, mcv_below: 0, mcv_all: 0, hb: 0, hn: 101 }), 0);
  assert.equal(fractionBelow({ nf: 0, mcv_below: 0, mcv_all: 0, hb: 101, hn: 101 }), 1);
});
