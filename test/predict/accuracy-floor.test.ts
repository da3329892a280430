// The offline accuracy floor: the recorded corpora (about 1,600 runs measured on real servers) replayed
// through the model as it is now, without a server. Per corpus and state, the share of runs of 20 pages or
// more predicted within 5 % may not fall below the recorded floor (npm run accuracy:floor records it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { corpusShares, FLOOR_FILE, type CorpusShares } from '../accuracy/corpus-floor';

test('no corpus and state predicts fewer runs within 5 % than the recorded floor, logical reads or pages read', () => {
  const floor = JSON.parse(readFileSync(FLOOR_FILE, 'utf8')) as CorpusShares;
  const now = corpusShares();
  assert.deepEqual(Object.keys(now).sort(), Object.keys(floor).sort());
  for (const [corpus, states] of Object.entries(floor)) {
    for (const [state, f] of Object.entries(states)) {
      const n = now[corpus][state];
      assert.ok(n, `${corpus} ${state}: no runs now`);
      for (const metric of ['logical', 'read'] as const) {
        assert.equal(n[metric][0], f[metric][0], `${corpus} ${state} ${metric}: runs counted`);
        assert.ok(n[metric][1] >= f[metric][1], `${corpus} ${state} ${metric}: ${n[metric][1]}/${n[metric][0]} within 5 %, the floor is ${f[metric][1]}`);
      }
    }
  }
});
