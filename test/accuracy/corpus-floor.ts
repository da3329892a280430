// The recorded corpora replayed offline: every fixture's prediction input through the model as it is now,
// beside the measured numbers recorded with it, and the share of runs of 20 pages or more predicted within
// 5 % per engine and state. Shared by the accuracy-floor test and scripts/accuracy-floor.ts, which records
// the floor. Not a test file itself.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { predictFixture, type PredictFixtureInput } from '../predict/fixture-loop';
import { readPgFixture } from './postgres-corpus';

export const FLOOR_FILE = 'test/fixtures/corpus/accuracy-floor.json';

interface RecordedRun {
  state: string;
  measuredLogical: number | null;
  measuredRead: number | null;
  measuredReadAhead: number | null;
}

/** Per corpus and state: runs counted (20 pages or more measured) and of them within 5 %, per number. */
export type CorpusShares = Record<string, Record<string, { logical: [number, number]; read: [number, number] }>>;

const CORPORA = [
  {
    name: 'innodb',
    dir: 'test/fixtures/corpus/innodb',
    runs: 'test/fixtures/corpus/innodb-runs.json',
    read: (p: string) => JSON.parse(readFileSync(p, 'utf8')) as PredictFixtureInput,
  },
  { name: 'postgres-15', dir: 'test/fixtures/corpus/postgres-15', runs: 'test/fixtures/corpus/postgres-15-runs.json', read: readPgFixture },
  { name: 'postgres-18', dir: 'test/fixtures/corpus/postgres-18', runs: 'test/fixtures/corpus/postgres-18-runs.json', read: readPgFixture },
];

const MIN_PAGES = 20;
const TOLERANCE = 0.05;

function tally(into: [number, number], measured: number | null, predicted: number | null): void {
  if (measured === null || measured < MIN_PAGES) return;
  into[0]++;
  if (predicted !== null && Math.abs(predicted - measured) <= TOLERANCE * measured) into[1]++;
}

/** Pages read: InnoDB's read-ahead counts with its synchronous reads, as the reports' totals do. */
const pagesRead = (read: number | null, ahead: number | null) => (read === null ? null : read + (ahead ?? 0));

export function corpusShares(): CorpusShares {
  const out: CorpusShares = {};
  for (const c of CORPORA) {
    const recorded = JSON.parse(readFileSync(c.runs, 'utf8')) as { runs: RecordedRun[] };
    const files = readdirSync(c.dir).sort();
    const byState: CorpusShares[string] = {};
    files.forEach((file, k) => {
      const got = predictFixture(c.read(join(c.dir, file)), { whatIf: false });
      got.runs.forEach((p, i) => {
        const m = recorded.runs[k * got.runs.length + i];
        const s = (byState[m.state] ??= { logical: [0, 0], read: [0, 0] });
        tally(s.logical, m.measuredLogical, p.predicted.logicalReads);
        tally(s.read, pagesRead(m.measuredRead, m.measuredReadAhead), pagesRead(p.predicted.physicalReads, p.predicted.readAhead));
      });
    });
    out[c.name] = byState;
  }
  return out;
}
