// The schema corpus's recordings replayed through the model as it is now, for the checks the schema corpus
// test makes: the runs whose prediction is 0 where pages were measured and that carry no note of what is not
// modelled, and per recording the runs of 20 pages or more predicted within 5 % (held to the floor in
// SCHEMA_FLOOR_FILE, which `npm run accuracy:floor` records). Run in a worker thread for half the recordings,
// so that the replay, the test's whole cost, uses both cores. Not a test file itself.
import { parentPort, workerData } from 'node:worker_threads';
import { share } from '../innodb-corpus';
import { replaySchemaRecording, schemaRecordings } from './recordings';

export const SCHEMA_FLOOR_FILE = 'test/fixtures/corpus/schema-floor.json';

/** Per recording: runs counted (20 pages or more measured) and of them within 5 %, per number. */
export type SchemaShares = Record<string, { logical: [number, number]; read: [number, number] }>;

export interface ReplayCheck {
  runs: number;
  zeros: string[];
  shares: SchemaShares;
}

export function replayCheck(keys: string[]): ReplayCheck {
  const zeros: string[] = [];
  const shares: SchemaShares = {};
  let runs = 0;
  for (const { key, recording } of schemaRecordings().filter((r) => keys.includes(r.key))) {
    const replayed = replaySchemaRecording(key, recording);
    for (const r of replayed) {
      runs++;
      if ((r.measuredLogical ?? 0) > 0 && r.predictedLogical === 0 && r.unmodelled.length === 0)
        zeros.push(`${key} ${r.pool} ${r.state} ${r.shape} run ${r.run}: 0 predicted with no note`);
    }
    // As docs/accuracy.md counts them (share): runs of 20 pages or more, within 5 %.
    const [l, r] = [share(replayed, 'logical'), share(replayed, 'read')];
    shares[key] = { logical: [l.counted, l.within], read: [r.counted, r.within] };
  }
  return { runs, zeros, shares };
}

if (parentPort && workerData?.keys) parentPort.postMessage(replayCheck(workerData.keys as string[]));
