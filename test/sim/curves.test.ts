import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lruMissRatioCurve } from '../../src/sim/lru-mrc';
import { fullCurve, miniSimCurve } from '../../src/sim/mini-sim';
import { LruPool } from '../../src/sim/policies/lru';
import { PostgresPool } from '../../src/sim/policies/postgres-clock-sweep';
import { InnodbPool } from '../../src/sim/policies/innodb-lru';
import { missHeavy, uniform } from '../../src/sim/traces';
import { replay } from '../../src/sim/simulate';

test('the one-pass LRU curve equals a full LRU simulation at every size', () => {
  const trace = missHeavy(60_000, 500, 4);
  const sizes = [1, 10, 100, 250, 500, 1000, 2500, 5000];
  const curve = lruMissRatioCurve(trace, sizes);
  sizes.forEach((size, i) => {
    assert.equal(curve.missRatios[i], replay(new LruPool(size), trace).missRatio, `size ${size}`);
  });
});

test('a hand-checked curve: a cyclic trace over 4 pages', () => {
  const trace = Int32Array.from([0, 1, 2, 3, 0, 1, 2, 3]);
  const c = lruMissRatioCurve(trace, [3, 4]);
  assert.deepEqual(c.missRatios, [1, 0.5]); // LRU thrashes below the loop size
  assert.equal(c.distinctPages, 4);
});

test('mini-simulations of the engine models stay close to full simulations', () => {
  const trace = missHeavy(300_000, 4000, 8);
  const sizes = [1000, 4000, 16000];
  for (const [name, make] of [
    ['postgresql', (p: number) => new PostgresPool(p)],
    ['innodb', (p: number) => new InnodbPool(p, { readAheadThreshold: 0 })],
  ] as const) {
    const full = fullCurve(trace, sizes, make);
    const mini = miniSimCurve(trace, sizes, make, { rate: 0.1 });
    const errors = full.map((f, i) => Math.abs(f - mini[i]));
    assert.ok(Math.max(...errors) < 0.05, `${name}: full ${full.map((x) => x.toFixed(3))} mini ${mini.map((x) => x.toFixed(3))}`);
  }
});

test('uniform traces give the textbook LRU curve', () => {
  const c = lruMissRatioCurve(uniform(200_000, 1000, 1), [250, 500, 750]);
  c.missRatios.forEach((m, i) => assert.ok(Math.abs(m - (1 - [0.25, 0.5, 0.75][i])) < 0.02));
});
