// The runs of some recordings whose prediction is 0 where pages were measured and that carry no note of what
// is not modelled. Run in a worker thread by the schema corpus test, so that the recordings are replayed on
// both cores: the replay is the test's whole cost. Not a test file itself.
import { parentPort, workerData } from 'node:worker_threads';
import { replaySchemaRecording, schemaRecordings } from './recordings';

export function unexplainedZeros(keys: string[]): { runs: number; zeros: string[] } {
  const out: string[] = [];
  let runs = 0;
  for (const { key, recording } of schemaRecordings().filter((r) => keys.includes(r.key))) {
    for (const r of replaySchemaRecording(key, recording)) {
      runs++;
      if ((r.measuredLogical ?? 0) > 0 && r.predictedLogical === 0 && r.unmodelled.length === 0)
        out.push(`${key} ${r.pool} ${r.state} ${r.shape} run ${r.run}: 0 predicted with no note`);
    }
  }
  return { runs, zeros: out };
}

if (parentPort && workerData?.keys) parentPort.postMessage(unexplainedZeros(workerData.keys as string[]));
