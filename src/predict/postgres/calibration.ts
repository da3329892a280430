// Every share and gate the PostgreSQL plan model takes that is neither PostgreSQL's own constant
// (layout-constants.ts) nor read from the server, with its provenance. Lint refuses numbers in the plan
// model's nodes/ and history/ outside this file, layout-constants.ts and guesses.ts.
import { values, type CalibrationEntry } from '../calibration-entry';

const VERSIONS = 'PostgreSQL 15 and 18';

export const PG_CALIBRATION_ENTRIES = {
  blockOrder: {
    value: 0.8,
    what: "an index scan whose heap share in block order (geometry.ts orderedShare, from the index column's correlation) is above this walks the heap in " +
      "block order",
    provenance:
      'a gate set by hand between two mechanisms (the block-order walk and the drawn one), not fitted; the rules that follow a scan in key order (dead ' +
      'entries counted, moved rows, partial fetches) apply above it',
    versions: VERSIONS,
  },
  randomOrder: {
    value: 0.2,
    what: 'below this share in block order, the report says the heap is visited in random order (wording only)',
    provenance: 'a gate for the note, not fitted; no number depends on it',
    versions: VERSIONS,
  },
  loadOrder: {
    value: 0.95,
    what: "above this share in block order, a heap after a table-wide update is taken as loaded in key order: a row's dead version is where the load put it",
    provenance:
      'a gate set by hand: orderedShare gives 1 - (1 - |c|) / 2 from a squared correlation of 0.95, so only keys that follow the heap almost exactly pass',
    versions: VERSIONS,
  },
  spreadBelow: {
    value: 0.5,
    what: "below this share in block order, a scan's few dead versions from earlier writes are spread over its keys in the shown draw (above: none met)",
    provenance: 'a gate set by hand at the midpoint, not fitted (measured: 3 dead entries among 50 through an uncorrelated k, 1 spread)',
    versions: 'PostgreSQL 15',
  },
  partialFetch: {
    value: 0.95,
    what: 'a correlated index-only scan that fetched fewer heap rows than this share of its entries fetched from part of its range (pages not all-visible)',
    provenance: 'a gate set by hand: a scan fetching nearly every row is modelled as fetching all',
    versions: VERSIONS,
  },
  tableWideDead: {
    value: 0.9,
    what: 'dead versions counted above this share of the rows show a table-wide update (the churned-leaves replays apply)',
    provenance: 'a gate set by hand: after a table-wide update the statistics count about one dead version a row',
    versions: VERSIONS,
  },
  denseKeys: {
    value: 0.02,
    what: 'keys are dense (one a row, from the first to the last) where their count is within this share of the rows',
    provenance: "a tolerance set by hand for the statistics' row estimate, not fitted",
    versions: VERSIONS,
  },
  loadedLeaves: {
    value: 0.03,
    what: 'leaves are laid out as a load in key order (or its table-wide update) left them where the replay gives their count within this share',
    provenance: "a tolerance set by hand for the index's size as read, not fitted",
    versions: VERSIONS,
  },
  churnedLeaves: {
    value: 0.05,
    what: "a table-wide update in key order is taken as replayed where the replay gives the unique index's leaves within this share",
    provenance: "a tolerance set by hand for the index's size as read, not fitted",
    versions: VERSIONS,
  },
  secondaryChurn: {
    value: 0.08,
    what: "a table-wide update replayed over a secondary index's rows is taken where it gives the index's leaves within this share",
    provenance: 'a tolerance set by hand: the replay over a window of rows extrapolates to the whole index',
    versions: 'PostgreSQL 15',
  },
  stoppedScan: {
    value: 0.9,
    what: 'a sequential scan that saw fewer rows than this share of the table stopped early (LIMIT) and read only the blocks its rows came from',
    provenance: 'a gate set by hand: a scan near the end is taken as whole',
    versions: VERSIONS,
  },
  firstPrune: {
    value: 0.5,
    what: "run 1's scan that dirtied at least this share of the dead versions' pages was the first to prune them since the table-wide update",
    provenance:
      'a gate set by hand between the two cases measured: 3,594 and 4,058 dirtied where run 1 was the first visit, 1-19 where an earlier statement had ' +
      'pruned them',
    versions: 'PostgreSQL 15',
  },
  clusteredWrite: {
    value: 0.5,
    what: "an UPDATE whose scan's index correlation is at least this (in absolute value) meets its rows page by page",
    provenance: 'a gate set by hand at the midpoint, not fitted',
    versions: VERSIONS,
  },
  settledPages: {
    value: 0.5,
    what: "where at least this share of a table's pages is all-visible, planning's lookups of a join column's ends read no heap page",
    provenance: 'a gate set by hand at the midpoint, not fitted',
    versions: 'PostgreSQL 15',
  },
  oneMeasurementLeaves: {
    value: 0.62,
    what: 'dead entries per row that one earlier measurement of a rolled-back write leaves in posting lists, where no scan can mark them',
    provenance:
      "fitted: pageinspect on pgbench's accounts (2,000,000 rows) after three rolled-back runs of a 2,001-row range update: 1,237 entries, 0.62 a row " +
      "(keys with one, two, three: 992, 70, 35)",
    versions: 'PostgreSQL 15',
  },
  sortSupportRequests: {
    value: 3,
    what: "catalog page requests a sort's first execution in the session makes per sort key (get_opfamily_proc: an index descent and a heap page)",
    provenance: 'measured, not fitted: 3 per key for int, numeric, text and char keys, 6 for two keys, none on later runs',
    versions: VERSIONS,
  },
  toastRowsInOrder: {
    value: 0.9,
    what: "an index scan's rows whose heap blocks ascend at least this often have their out-of-line values read as one run of the TOAST table (below: each " +
      "at its own row's place)",
    provenance: 'a gate set by hand between the two placements, not fitted (a key range of rows loaded in order ascends every time)',
    versions: VERSIONS,
  },
  randomInsertFill: {
    value: 0.8,
    what: "an index on a key that is not ascending whose leaves hold under this share of a full page's entries was grown by random inserts: its root holds " +
      "every leaf until the root is full (above: a sorted build's 70 % internal pages)",
    provenance:
      'a gate set by hand between the two fills, not fitted: a sorted build leaves leaves 90 % full, random inserts about 70 % (60,000 UUID keys: 285 ' +
      'leaves, one root, two levels measured)',
    versions: VERSIONS,
  },
} satisfies Record<string, CalibrationEntry>;

export const PG_CALIBRATION = values(PG_CALIBRATION_ENTRIES);
