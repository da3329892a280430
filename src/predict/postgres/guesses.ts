// Every choice the PostgreSQL plan model cannot read from the server, declared once by name with its
// alternatives. The band is the predictions of DRAWS draws (prediction.ts): draw 0 is the one shown, and
// each other draw takes, per guess, the alternative its dimension (a bit of the draw number) selects.
// Guesses that share a dimension move together across the band; SHARED_DIMENSIONS declares which do, so
// that a new guess cannot join a dimension silently (test/predict/postgres/guesses.test.ts).

export interface Guess {
  what: string;
  /** The alternatives, by index. */
  alternatives: readonly string[];
  /** The bit of the draw number that selects between `low` and `high` on the band's draws; 0: every draw but the shown one takes `high`. */
  dimension: 0 | 1 | 2 | 4;
  /** The alternative the shown draw (0) takes. */
  shown: number;
  low: number;
  high: number;
}

const twoWays = (what: string, dimension: Guess['dimension'], alternatives: readonly [string, string]): Guess => ({
  what,
  alternatives,
  dimension,
  shown: 0,
  low: 0,
  high: 1,
});

export const PG_GUESSES = {
  lateWorkers: twoWays('which blocks each participant of a parallel scan took', 1, [
    "each at its share's pace from the start",
    'workers with smaller shares started late',
  ]),
  fewestKept: twoWays("how far the timing of a parallel scan's participants may go (which blocks their rings keep)", 2, [
    'as the reading above',
    'the outer bound: blocks already cached taken by the smallest shares, the rest by the largest (the fewest kept)',
  ]),
  dirtiedAtEnd: twoWays('which blocks a ring scan dirtied (and its ring rejected, leaving them cached)', 1, [
    'spread evenly over the scan',
    "at the scan's end",
  ]),
  prunedBefore: twoWays("whether run 1's seq scan was the first to prune a table-wide update's dead versions", 4, [
    "as run 1's dirtied blocks say",
    'the other case',
  ]),
  roomFromPruning: twoWays('whether pruning left room for a HOT version on a full page', 4, ['no room', 'room on the first update of every page']),
  deadSpread: twoWays("whether an earlier write's few dead versions lie under the scan's keys", 4, [
    "the likelier case for the scan's correlation (spread where uncorrelated, none met where correlated)",
    'the other case',
  ]),
  marksSkipped: twoWays('whether the dead entries a previous run met are already marked dead', 2, ['not marked', 'marked']),
  markedSinceUpdate: twoWays("whether a scan since a table-wide update marked the dead entries under a write's keys", 2, ['none marked', 'all marked']),
  backwardWithinKey: twoWays(
    "whether a backward scan whose every row lies among the versions a table-wide update appended stayed within its first key's entries",
    0,
    ["within it: the key's lower heap positions, its rows' dead versions there, never reached", "across keys: each row's dead version met"],
  ),
  fetchedDeadPages: twoWays("where an index-only scan's fetches beyond its live rows' (dead entries) go", 2, [
    "the table's last blocks, as many a block as a full page holds (a rolled-back write's versions, appended in the order its scan wrote them)",
    'a page each (versions spread over the heap)',
  ]),
  leavesMarkedBefore: twoWays("whether a scan before run 1 already marked the moved rows' old entries", 2, ['run 1 is the first', 'an earlier scan was']),
  updatedEarlierMarked: twoWays("whether a scan marked a row's dead entry before the table-wide update's leaf filled", 1, [
    'the share the count asks for keeps no posting list',
    'every such leaf was marked first',
  ]),
  deadPerKey: {
    what: 'how many dead entries a key holds where no view shows it (a posting list of rolled-back versions)',
    alternatives: ['one, one and two by turns', 'one a key', 'two a key'],
    dimension: 1,
    shown: 0,
    low: 1,
    high: 2,
  },
  earlierWriteEntries: {
    what: "how many of the dead entries counted after a rolled-back write's runs an earlier measurement of it left under its keys",
    alternatives: ['what one earlier measurement leaves', 'none', 'all counted'],
    dimension: 1,
    shown: 0,
    low: 1,
    high: 2,
  },
  earlierBetweenBlocks: {
    what: "which of the blocks between the rows as loaded and a table-wide update's versions a write's runs visit",
    alternatives: ['one in five of each measurement on run 1, one in ten more on run 2', 'none', 'every block on run 1'],
    dimension: 1,
    shown: 0,
    low: 1,
    high: 2,
  },
  filterReach: twoWays("how many rows a later clause of a filter is evaluated on (the earlier clauses' share no counter tells)", 0, [
    'the rows the scan returned',
    'every row the scan read',
  ]),
  skipNextLeaf: twoWays("whether each search of a skip scan reads the leaf after the one it lands on (its entries' end no view places)", 4, [
    'the leaf it lands on',
    'that leaf and the next',
  ]),
  twinsFastPath: twoWays(
    "whether a later run's entries of keys past an index's largest, each beside the previous run's dead twin, take the right-most leaf's fast path",
    0,
    [
      "the fast path, as run 1's (the twins in the right-most leaf)",
      "a descent each (the twins in the leaves before it: where the previous run's splits left them, from the build's last leaf's fill, no view shows)",
    ],
  ),
  deadEndAppends: twoWays(
    "whether keys past an index's largest live one also lie past the dead entries an earlier rolled-back write left there",
    0,
    [
      'among them: each entry descends to the dead leaves, spread over them in key order (the fast path is for the right-most leaf only)',
      "past them: the right-most leaf's fast path",
    ],
  ),
  earlierPlacement: {
    what: "where an earlier write's versions lie, where no view shows it",
    alternatives: ["before the blocks committed updates appended, or on the table's last (cached) blocks", 'spread over the heap'],
    dimension: 0,
    shown: 0,
    low: 1,
    high: 1,
  },
} as const satisfies Record<string, Guess>;

export type PgGuessName = keyof typeof PG_GUESSES;

/** Guesses that move together across the band, declared: one dimension each, to be separated. */
export const SHARED_DIMENSIONS: Record<Guess['dimension'], PgGuessName[]> = {
  0: ['earlierPlacement', 'filterReach', 'backwardWithinKey', 'twinsFastPath', 'deadEndAppends'],
  1: ['lateWorkers', 'dirtiedAtEnd', 'updatedEarlierMarked', 'deadPerKey', 'earlierWriteEntries', 'earlierBetweenBlocks'],
  2: ['fewestKept', 'marksSkipped', 'markedSinceUpdate', 'leavesMarkedBefore', 'fetchedDeadPages'],
  4: ['prunedBefore', 'roomFromPruning', 'deadSpread', 'skipNextLeaf'],
};

/** The alternative a draw takes for a guess. */
export function guess(draw: number, name: PgGuessName): number {
  const g: Guess = PG_GUESSES[name];
  if (draw === 0) return g.shown;
  if (g.dimension === 0) return g.high;
  return (draw & g.dimension) !== 0 ? g.high : g.low;
}

/** Seeds of the model's random streams: one per draw, spread by the golden ratio's 32-bit hash step. */
export const RUN_SEED = 0x5eed;
export const VISIBILITY_SEED = 0x7153;
export const GOLDEN_STEP = 0x9e3779b1;
/** The golden ratio's fraction: steps of it spread any count of points evenly (a low-discrepancy order). */
export const GOLDEN_FRACTION = 0.6180339887498949;
/** The shown draw's dead entries per key, by turns (deadPerKey's first alternative). */
export const DEAD_PER_KEY_TURNS = [1, 1, 2] as const;
/** Halvings a share is fitted with (fitPlainShare): 2^-20 of the unit. */
export const FIT_HALVINGS = 20;
