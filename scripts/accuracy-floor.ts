// Records the offline accuracy floors (test/fixtures/corpus/accuracy-floor.json, and schema-floor.json for
// the schema corpus per recording): per corpus and state,
// the runs predicted within 5 % by the model as it is now. Run after a change that raises a share; the
// test fails where a share falls below what is recorded. npm run accuracy:floor
import { writeFileSync } from 'node:fs';
import { corpusShares, FLOOR_FILE } from '../test/accuracy/corpus-floor';
import { replayCheck, SCHEMA_FLOOR_FILE } from '../test/accuracy/schemas/replay-check';
import { schemaRecordings } from '../test/accuracy/schemas/recordings';

const shares = corpusShares();
writeFileSync(FLOOR_FILE, JSON.stringify(shares, null, 2) + '\n');
for (const [corpus, states] of Object.entries(shares)) {
  for (const [state, s] of Object.entries(states)) {
    console.log(`${corpus} ${state}: logical ${s.logical[1]}/${s.logical[0]}, pages read ${s.read[1]}/${s.read[0]}`);
  }
}

// The schema corpus, per recording (its test holds each to this).
const schemas = replayCheck(schemaRecordings().map((r) => r.key)).shares;
writeFileSync(SCHEMA_FLOOR_FILE, JSON.stringify(schemas, null, 2) + '\n');
for (const [key, s] of Object.entries(schemas)) console.log(`${key}: logical ${s.logical[1]}/${s.logical[0]}, pages read ${s.read[1]}/${s.read[0]}`);
