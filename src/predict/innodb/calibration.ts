// The page-get counts of InnoDB's row operations the traces cannot walk page by page, with provenance.
// All were measured on MariaDB 10.11 with 16 KiB pages (INNODB_METRICS' index_page_* counters beside the
// read requests); on another server they are applied as measured there, and the prediction says so.
import { values, type CalibrationEntry } from '../calibration-entry';

const MEASURED_ON = 'MariaDB 10.11';

export const INNODB_CALIBRATION_ENTRIES = {
  rollbackGets: {
    value: 2,
    what: "gets a rollback makes before it undoes a record: the undo log's header and the segment's",
    provenance: 'measured: a rolled-back write against the same write committed',
    versions: MEASURED_ON,
  },
  undoPageBackGets: {
    value: 9,
    what: "gets of a rollback stepping back onto the undo log's page before (the log header and the previous page's list node)",
    provenance: 'measured: a 1,000-row UPDATE of a 120-byte column wrote 10 undo pages and took 1,070-1,079 gets, its rollback 4,083',
    versions: MEASURED_ON,
  },
  splitOtherGets: {
    value: 4,
    what: "gets of a leaf split beyond the pages walked, the new page's creation among them",
    provenance: 'measured: a 1-row INSERT 20 gets with one split, 9 without; 100 random-key inserts, 67-73 splits, within 4 %',
    versions: MEASURED_ON,
  },
  mergeOtherGets: {
    value: 6,
    what: 'gets of a merge beyond the pages walked, failed merge attempts included',
    provenance: 'measured: the rollback of a 1-row INSERT, 24-26 gets with one merge, 13 without',
    versions: MEASURED_ON,
  },
  insertUndoClusteredGets: {
    value: 3,
    what: 'gets of rolling back an inserted clustered record beyond the walk: searched for again and removed',
    provenance: 'measured: 7.4 per row, 4 of them walked',
    versions: MEASURED_ON,
  },
  openDictionaryGets: {
    value: 7,
    what: "gets of opening a table beyond its clustered index's walk: its definition and persistent statistics",
    provenance: 'measured per index and tree level: a table not in the table cache before run 1',
    versions: MEASURED_ON,
  },
  freshPageGets: {
    value: 3,
    what: "gets a split's new page from the file's free space takes the first time, beyond one a rollback freed",
    provenance: 'measured: a single-row INSERT 47 gets on run 1 against 44 on runs 2-3, 49 against 46 in a warm 128 MiB pool',
    versions: MEASURED_ON,
  },
  denseIds: {
    value: 0.1,
    what: "a range's clustered ids run densely between their ends (and are placed as far along the leaves as along the ids) where the span of ids is within " +
      "this share of the rows counted",
    provenance:
      "a tolerance set by hand, not fitted: ids deleted or skipped by a rolled-back insert leave gaps of a few per cent; schema corpus seed 2's date " +
      "range (ids dense, 1,188 leaves at 100 rows a leaf) measured 30 pages read, 30 predicted when placed so",
    versions: MEASURED_ON,
  },
  evenKeys: {
    value: 0.05,
    what: "a composite clustered key's first-column values read for a statement's lookups spread evenly over the column's span where their largest distance " +
      "from an even spread (Kolmogorov-Smirnov) is within this share; then each is placed as far along the leaves as along the span",
    provenance:
      'a tolerance set by hand, not fitted: values that follow a pattern of their own (a date range over customers numbered in blocks) stay a block ' +
      'apart from even; a skewed column (most rows on low ids) is a quarter or more away; measured (test/predict/innodb-lookup-keys.test.ts: 500 rows of ' +
      'five days over 30 blocks of customers): 40 pages read cold, 43 predicted so, 407 drawn',
    versions: MEASURED_ON,
  },
  randomFillFrom: {
    value: 0.6,
    what: "an index whose leaves average at least this fill (and under randomFillTo) is taken as grown by inserts in random key order: each page's fill " +
      "drawn as 2^u / 2, from half a page to a full one",
    provenance:
      'a gate set by hand around ln 2 ≈ 0.69, the average fill random inserts leave (Yao), not fitted; measured ' +
      '(test/predict/innodb-insert-rollback.test.ts: a UUID key of 35 rows a page, 550 random inserts): 23 splits, 1.44/35 of the inserts',
    versions: MEASURED_ON,
  },
  fillSamplePages: {
    value: 16,
    what: "cached pages of an index from which their fills (DATA_SIZE, read before run 1) stand for its leaves' when drawing which leaves are full; fewer: " +
      "the fill is taken from the statistics",
    provenance:
      "a gate set by hand, not fitted: a root and one descent's path (2-4 pages) say nothing of the leaves; measured " +
      "(test/predict/innodb-split-since-build.test.ts): 121 cached pages of a 120-leaf index, 47 of them full, gave 7,419 gets predicted where 7,502 " +
      "were measured",
    versions: MEASURED_ON,
  },
  scatteredFillFrom: {
    value: 0.55,
    what: 'a clustered index whose leaves average at least this fill (and under randomFillTo) is taken as grown by inserts in random key order, its leaves ' +
      'in key order anywhere in the file (no linear read-ahead); below it, its pages are the halves splits in key order left',
    provenance:
      'a gate set by hand, not fitted: random inserts leave pages from half full to full, ln 2 ≈ 0.69 on average, so an average near one half means ' +
      'nearly every page was split and not refilled; measured on the schema corpus (MariaDB 10.11): random-order clustered indexes at 0.57-0.72 read ' +
      'nothing ahead, an ordered table after an update that grew a third of its rows at 0.51 read ahead',
    versions: MEASURED_ON,
  },
  randomFillTo: {
    value: 0.8,
    what: 'the fill from which an index is taken as built sorted or grown in key order, its pages about equally full (see randomFillFrom)',
    provenance:
      'a gate set by hand between ln 2 and the 15/16 a sorted build leaves (innodb_fill_factor 100 keeps 1/16 free), not fitted; the UUID key measured ' +
      'for randomFillFrom (fill 0.69) lies inside',
    versions: MEASURED_ON,
  },
} satisfies Record<string, CalibrationEntry>;

export const INNODB_CALIBRATION = values(INNODB_CALIBRATION_ENTRIES);

/** Where the server is not the one the counts were measured on, the note the prediction carries. */
export function calibrationNote(product: string, release: string | undefined): string | undefined {
  const measuredOn = product === 'mariadb' && release?.startsWith('10.11');
  return measuredOn
    ? undefined
    : (
        `the page-get counts of row operations (rollback, splits, merges, table opens) were measured on ${MEASURED_ON} ` +
        `and are applied to ${product === 'mariadb' ? 'MariaDB' : 'MySQL'} ${release ?? ''} as measured there`
      ).trimEnd();
}
