// PostgreSQL's own constants the plan model follows (from its source and defaults), and the versions
// whose behaviour it depends on. Not calibration: nothing here was fitted.

/** BLCKSZ's default. */
export const DEFAULT_BLOCK_SIZE = 8192;
/** SizeOfPageHeaderData. */
export const PAGE_HEADER_BYTES = 24;
/** Heap pages one visibility-map page covers: two bits each in a page less its header (HEAPBLOCKS_PER_BYTE × MAPSIZE). */
export const HEAP_BLOCKS_PER_VM_PAGE = (DEFAULT_BLOCK_SIZE - PAGE_HEADER_BYTES) * 4;
/** io_combine_limit's and effective_io_concurrency's defaults where a server predates them (16 blocks; 16 from PostgreSQL 18). */
export const DEFAULT_IO_COMBINE_LIMIT = 16;
export const DEFAULT_EFFECTIVE_IO_CONCURRENCY = 16;
/** PostgreSQL 14 fetches an updated row's old version again to form the new one (heap_update's refetch). */
export const REFETCHES_OLD_VERSION_FROM = 14;
/**
 * PostgreSQL 17 reads the next key of an `= ANY` array on the leaf in hand without another descent
 * (_bt_advance_array_keys); before, each key is a primitive index scan of its own, from the root.
 */
export const ARRAY_KEYS_ON_LEAF_FROM = 17;
/** PostgreSQL 18 skips from one leading value of a B-tree to the next where a condition leaves that column free (skip scan). */
export const SKIP_SCAN_FROM = 18;
/** PostgreSQL 18 reads a sequential scan's blocks through a read stream. */
export const READ_STREAM_SEQ_SCAN_FROM = 18;

/**
 * Not PostgreSQL's: the simulation's page-id spaces. A relation's forks are simulated as relations past
 * the measured ones, at this multiple of (relations + 1): the visibility maps, the free-space maps, and
 * the sequence page an INSERT asks.
 */
export const FORK_SPACE = { vm: 1, fsm: 2, sequence: 3 } as const;
/** From PostgreSQL 17, pg_column_toast_chunk_id tells whether a value is stored out of line (before: told by its size). */
export const TOAST_CHUNK_ID_FROM_MAJOR = 17;

/** Levels of a free-space map that fsm_search walks from its root to the leaf (three for any table below 2^32 blocks). */
export const FSM_LEVELS = 3;

/**
 * Levels a B-tree needs, the leaves counted, before an insert caches its right-most leaf (nbtinsert.c:
 * BTREE_FASTPATH_MIN_LEVEL 2, levels counted from the leaves at 0).
 */
export const FASTPATH_MIN_HEIGHT = 3;
