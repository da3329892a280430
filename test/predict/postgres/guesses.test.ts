// The model's named guesses: the band's draws take every alternative of each, the shown draw the one the
// report shows, and guesses that move together are declared, never joined silently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DRAWS } from '../../../src/predict/prediction';
import { guess, PG_GUESSES, SHARED_DIMENSIONS, type PgGuessName } from '../../../src/predict/postgres/guesses';

const names = Object.keys(PG_GUESSES) as PgGuessName[];

test("the band's draws cover every alternative of every guess, and the shown draw takes the shown one", () => {
  for (const name of names) {
    const g = PG_GUESSES[name];
    const taken = new Set(Array.from({ length: DRAWS }, (_, d) => guess(d, name)));
    assert.deepEqual(
      [...taken].sort(),
      g.alternatives.map((_, k) => k),
      `${name}: draws take ${[...taken].join(', ')} of ${g.alternatives.length}`,
    );
    assert.equal(guess(0, name), g.shown, name);
  }
});

test('every guess is declared once under the dimension it reads: a guess joining one is a visible change', () => {
  const declared = Object.entries(SHARED_DIMENSIONS).flatMap(([d, list]) => list.map((n) => [n, Number(d)] as const));
  assert.deepEqual(declared.map(([n]) => n).sort(), [...names].sort());
  for (const [n, d] of declared) assert.equal(PG_GUESSES[n].dimension, d, n);
});
