// What a PostgreSQL measurement reads after its last run: rows' places, the pages index-only scans fetched
// from, dead entries, moved rows, keys, values out of line, the written rows' pages (one module each). Each query but the key ranges and the
// start fractions carries the statement's own text or conditions: the gate's verdict decides whether they
// may be asked again at all.
import type { Client } from 'pg';
import type { PlanNode } from '../../shared/report';
import type { PgPostRunObservations, PgPredictionInput } from '../../predict/postgres/facts';
import { reaskBlocked, type RunVerdict } from '../gate';
import { readHeapBlocks, readScanBlocks } from './heap-blocks';
import { readMovedRows } from './moved-rows';
import { readFetchedBlocks } from './fetched-blocks';
import { readBitmapBlocks } from './bitmap-blocks';
import { readAppendedKeys } from './appended-keys';
import { readDeadEntries } from './dead-entries';
import { readStartFractions } from './key-fraction';
import { readToastValues } from './toast-values';
import { readKeyRanges } from './key-range';
import { readIndexHeights, type IndexEnds } from './index-height';
import { readLookupRows } from './lookup-rows';
import { readIndexWindows } from './index-window';
import { readWrittenRows } from './written-rows';
import { readPartialEntries } from './partial-entries';
import { readInsertedOutOfLine } from './inserted-values';
import { readInsertedKeyPositions } from './key-positions';
import { readDeadPastInserted } from './dead-past-inserted';
import type { PgRelation } from './residency';

export interface AfterRunsContext {
  client: Client;
  statement: string;
  plan: PlanNode;
  relations: PgRelation[];
  facts: Omit<PgPredictionInput, 'runs'>;
  timeoutMs: number;
  dataChanging: boolean;
  commit: boolean;
  verdict: RunVerdict | undefined;
  /** The schema of pg_visibility where this user may read the visibility map with it. */
  visibility: string | null;
}

const some = <T extends object>(o: T) => (Object.keys(o).length > 0 ? o : undefined);

const endsObserved = ({ heights, deadEndLeaves }: IndexEnds): Pick<PgPostRunObservations, 'indexHeights' | 'deadEndLeaves'> => ({
  ...(some(heights) ? { indexHeights: heights } : {}),
  ...(some(deadEndLeaves) ? { deadEndLeaves } : {}),
});

/** The observations, and why the statement's own text was not asked again where the gate blocked it. */
export async function readAfterRuns(c: AfterRunsContext): Promise<{ observed: PgPostRunObservations; reaskNote?: string }> {
  const { client, plan, relations, timeoutMs: timeout } = c;
  const facts = c.facts.relations;
  const blocked = c.verdict && reaskBlocked(c.verdict);
  if (blocked) {
    const keyRanges = await readKeyRanges(client, relations, facts, timeout);
    const ends = await readIndexHeights(client, relations, facts, timeout);
    // The scans' first keys come from the plan and are compared in pg_stats only: no user code runs.
    const startFractions = await readStartFractions(client, plan, relations, timeout);
    const observed = { ...(some(keyRanges) ? { keyRanges } : {}), ...endsObserved(ends) };
    return { observed: { ...observed, ...(some(startFractions) ? { startFractions } : {}) }, reaskNote: blocked };
  }
  const observed: PgPostRunObservations = {};
  // A write's runs were rolled back: its rows are as they were, and a read-only transaction asks about
  // them as for a read. What rewrites the statement's select list asks only a SELECT.
  if (!c.dataChanging) {
    const scanBlocks = await readScanBlocks(client, plan, facts, timeout);
    const heapBlocks = await readHeapBlocks(client, c.statement, plan, timeout);
    const { lookups, outerBlocks } = await readLookupRows(client, c.statement, plan, timeout);
    // The whole statement's rows, a loop's outer rows as it ran, then a scan's asked alone.
    observed.heapBlocks = some({ ...scanBlocks, ...outerBlocks, ...heapBlocks });
    if (some(lookups)) observed.lookupRows = lookups;
    if (c.visibility) observed.fetchedBlocks = some(await readFetchedBlocks(client, plan, relations, facts, c.visibility, timeout));
    const windows = await readIndexWindows(client, c.statement, plan, relations, facts, c.facts.settings.blockSize, timeout);
    if (some(windows)) observed.indexWindows = windows;
  }
  // Dead entries under the scan's keys: what every run of a SELECT met; under a rolled-back write's, an earlier
  // write's and its own runs' together, the most run 1 can have met (the range takes them, the prediction none).
  if (!c.dataChanging || !c.commit) {
    const dead = await readDeadEntries(client, plan, relations, facts, timeout);
    if (some(dead)) observed[c.dataChanging ? 'writeDeadEntries' : 'deadEntries'] = dead;
    observed.bitmapBlocks = some(await readBitmapBlocks(client, plan, facts, timeout));
    if (c.dataChanging) {
      observed.appendedKeys = await readAppendedKeys(client, c.statement, facts, timeout);
      const written = await readWrittenRows(client, plan, relations, facts, c.facts.settings, timeout);
      observed.writtenBlocks = some(written.blocks);
      const inserted = await readInsertedKeyPositions(client, c.statement, relations, facts, observed.appendedKeys ?? [], timeout);
      observed.writtenKeyPositions = some({ ...written.keyPositions, ...inserted });
      observed.writtenOutOfLine = some(written.outOfLine);
      // An INSERT's rows, or an UPDATE's: each count is of the statement's own written rows.
      observed.partialEntries = some({ ...written.partial, ...(await readPartialEntries(client, c.statement, facts, timeout)) });
      observed.insertedOutOfLine = some(await readInsertedOutOfLine(client, c.statement, facts, c.facts.settings, timeout));
    }
  }
  // Committed runs moved rows and may have stored other values: the rows now are not those run 1 met.
  const committed = c.dataChanging && c.commit;
  const moved = committed ? {} : await readMovedRows(client, c.dataChanging ? undefined : c.statement, plan, relations, facts, timeout);
  if (some(moved)) observed.movedRows = moved;
  const keyRanges = await readKeyRanges(client, relations, facts, timeout);
  if (some(keyRanges)) observed.keyRanges = keyRanges;
  Object.assign(observed, endsObserved(await readIndexHeights(client, relations, facts, timeout)));
  if (observed.appendedKeys?.length)
    observed.deadPastInserted = some(
      await readDeadPastInserted(client, c.statement, relations, facts, observed.appendedKeys, observed.indexHeights ?? {}, timeout),
    );
  const startFractions = await readStartFractions(client, plan, relations, timeout);
  if (some(startFractions)) observed.startFractions = startFractions;
  const toastValues = committed ? {} : await readToastValues(client, plan, facts, c.facts.settings, timeout);
  if (some(toastValues)) observed.toastValues = toastValues;
  return { observed };
}
