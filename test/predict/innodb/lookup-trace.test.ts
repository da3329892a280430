// Many short lookups share out the leaf ends they cross (spreadCrossings): pure, no server. Measured on MariaDB 10.11
// (composite key, 24 values of 10 rows of 700 B, about 15 rows a leaf): 182 gets where a leaf a value gave 168
// (the schema corpus's IN lists hold the model to real recordings: test/accuracy/schema-corpus.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spreadCrossings } from '../../../src/predict/innodb/lookup-trace';

const total = (leaves: (loop: number) => number, loops: number) => Array.from({ length: loops }, (_, j) => leaves(j)).reduce((a, b) => a + b, 0);

test('loops of 10 rows on leaves of 15 read the leaf ends their rows and the next record cross: 11 steps in 15, not a leaf each', () => {
  const expected = 1 + 11 / 15;
  const leaves = spreadCrossings(expected, 10_000);
  const read = total(leaves, 24);
  assert.ok(Math.abs(read - 24 * expected) < 1, `${read} leaves for 24 loops, ${24 * expected} expected`);
  for (let j = 0; j < 24; j++) assert.ok(leaves(j) === 1 || leaves(j) === 2, `loop ${j}: ${leaves(j)} leaves`);
});

test('the draw shifts which loops cross, not how many', () => {
  const totals = [0, 1, 2, 3, 4, 5, 6, 7].map((draw) => total(spreadCrossings(1.4, 10_000, draw), 100));
  assert.ok(Math.max(...totals) - Math.min(...totals) <= 1, `totals over the draws: ${totals.join(', ')}`);
  const first = [0, 1, 2, 3].map((draw) => spreadCrossings(1.4, 10_000, draw)(0));
  assert.ok(new Set(first).size > 1, `the first loop crosses on some draws only: ${first.join(', ')}`);
});

test('whole leaves stay whole, and no loop reads more leaves than the index has', () => {
  assert.equal(total(spreadCrossings(3, 10_000), 10), 30);
  assert.equal(spreadCrossings(5.5, 2)(0), 2);
});
