// Records the offline accuracy floor (test/fixtures/corpus/accuracy-floor.json): per corpus and state,
// the runs predicted within 5 % by the model as it is now. Run after a change that raises a share; the
// test fails where a share falls below what is recorded. npm run accuracy:floor
import { writeFileSync } from 'node:fs';
import { corpusShares, FLOOR_FILE } from '../test/accuracy/corpus-floor';

const shares = corpusShares();
writeFileSync(FLOOR_FILE, JSON.stringify(shares, null, 2) + '\n');
for (const [corpus, states] of Object.entries(shares)) {
  for (const [state, s] of Object.entries(states)) {
    console.log(`${corpus} ${state}: logical ${s.logical[1]}/${s.logical[0]}, pages read ${s.read[1]}/${s.read[0]}`);
  }
}
