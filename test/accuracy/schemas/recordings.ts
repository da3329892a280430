// The schema corpus as recorded (test/fixtures/corpus/schemas/), replayed through the model as it is now:
// each run's measured numbers beside today's prediction, its band over the draws and what it says it does not
// model. Shared by scripts/schema-corpus.ts (which publishes it) and the tests that hold the model to it.
// Not a test file itself.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { predictFixture, type PredictFixtureInput } from '../../predict/fixture-loop';
import { bands, pagesRead, type CorpusRun } from '../innodb-corpus';

export const SCHEMA_DIR = 'test/fixtures/corpus/schemas';

/**
 * Seeds a session may study to find what the model misses. 101-103 were held out until their misses were
 * read (2026-12-05), and 104-106 until theirs were (2026-12-05, the composite-key lookups): they count as
 * studied from then on.
 */
export const FIT_SEEDS: readonly number[] = [1, 2, 3, 101, 102, 103, 104, 105, 106];
/** Seeds nobody studies before their numbers are published: the model is judged on these. */
export const HELD_OUT_SEEDS: readonly number[] = [107, 108, 109, 110, 111, 112];

export interface SchemaRecording {
  engine: string;
  seed: number;
  schema: string;
  dataMB: number;
  pools: number[];
  runs: Array<Omit<CorpusRun, 'sql'>>;
  /** Each measurement's statement, in recording order. */
  statements: string[];
}

export interface ReplayedRun extends Omit<CorpusRun, 'sql'> {
  seed: number;
  heldOut: boolean;
  sql: string;
  unmodelled: string[];
}

export function fixtureName(k: number, name: string): string {
  const slug = name
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/-+$/, '')
    .toLowerCase();
  return `${String(k).padStart(3, '0')}-${slug.slice(0, 80)}.json.gz`;
}

export function schemaRecordings(): Array<{ key: string; recording: SchemaRecording }> {
  if (!existsSync(SCHEMA_DIR)) return [];
  return readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('-runs.json'))
    .sort()
    .map((f) => ({ key: f.replace(/-runs\.json$/, ''), recording: JSON.parse(readFileSync(join(SCHEMA_DIR, f), 'utf8')) as SchemaRecording }));
}

/** Every recorded run with the prediction the model makes of it now. */
export function replaySchemaRecording(key: string, recording: SchemaRecording): ReplayedRun[] {
  const dir = join(SCHEMA_DIR, key);
  const files = readdirSync(dir).sort();
  const out: ReplayedRun[] = [];
  files.forEach((file, k) => {
    const recorded = JSON.parse(gunzipSync(readFileSync(join(dir, file))).toString('utf8')) as PredictFixtureInput;
    const input = withEarlierRuns(recorded, recording, k, files.length);
    const got = predictFixture(input, { whatIf: false });
    got.runs.forEach((p, i) => {
      const m = recording.runs[k * got.runs.length + i];
      if (!m || file !== fixtureName(k, `${m.pool}-${m.state}-${m.shape}`)) throw new Error(`${dir} and its runs disagree at ${file}: record the seed again`);
      const { bandLogical: _l, bandRead: _r, ...measured } = m;
      out.push({
        ...measured,
        predictedLogical: p.predicted.logicalReads,
        predictedRead: pagesRead(p.predicted),
        predictedReadAhead: p.predicted.readAhead,
        ...bands(p.range),
        seed: recording.seed,
        heldOut: HELD_OUT_SEEDS.includes(recording.seed),
        sql: recording.statements[k] ?? '',
        unmodelled: p.unmodelled,
      });
    });
  });
  return out;
}

/** Runs each of a recording's measurements took (every one took the same number). */
const runsPer = (recording: SchemaRecording, files: number): number => Math.round(recording.runs.length / Math.max(1, files));

/**
 * A re-measured write follows the cold measurement of the same statement, whose rolled-back runs it meets:
 * measure() tells the prediction so where the caller hands it the earlier report (earlierRuns). Recordings
 * made before 2026-12-07 lack it, and are given it from the recording itself: the measurement before.
 */
function withEarlierRuns(input: PredictFixtureInput, recording: SchemaRecording, k: number, files: number): PredictFixtureInput {
  const per = runsPer(recording, files);
  const state = recording.runs[k * per]?.state;
  const sql = recording.statements[k] ?? '';
  if (input.earlierRuns !== undefined || state !== 're-measured' || k === 0 || recording.statements[k - 1] !== sql || !WRITE.test(sql)) return input;
  return { ...input, earlierRuns: per };
}

const WRITE = /^\s*(insert|update|delete)\b/i;
