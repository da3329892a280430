// Run 1 of a statement that an earlier measurement found wholly cached, with every page of its relations
// still cached: the server holds the pages run 1 requests, wherever the model places them. A probe replay
// of run 1 finds the pages the model would read; each takes the starting place of a cached page of the same
// relation that run 1 does not request, so the pool starts with as many pages of each relation as the
// residency snapshot showed, and with the statement's among them.

/**
 * How many times the measured pool the probe replay gets. It only has to find the pages the model would
 * read; a page it evicts and requests again is not counted twice (the log keeps first reads), so the size
 * changes how few evictions there are, not what is found.
 */
export const PROBE_POOL_SCALE = 4;

/** What a probe replay of run 1 requested, and which of its requests missed, in order. */
export interface RequestLog {
  requested: Set<number>;
  read: number[];
}

/**
 * Records every request of `method` (a page request returning whether the page was cached) made on this
 * pool: the probe is a pool of its own, thrown away after the replay.
 */
export function recordRequests<K extends string>(pool: { [key in K]: (page: number, ...rest: never[]) => boolean }, method: K): RequestLog {
  const log: RequestLog = { requested: new Set(), read: [] };
  const original = pool[method].bind(pool);
  const recorded = (page: number, ...rest: never[]): boolean => {
    const hit = original(page, ...rest);
    if (!hit && !log.requested.has(page)) log.read.push(page);
    log.requested.add(page);
    return hit;
  };
  pool[method] = recorded as (typeof pool)[K];
  return log;
}

/**
 * Victim → replacement for the starting pool. `start` lists the starting pages, most recently used first;
 * `relationOf` names a page's relation, or -1 for a page of none. A page read whose relation has no
 * cached page left to give (the model requests more of it than the snapshot holds) takes another page's
 * place: the earlier run read nothing, which outweighs the model's count of the statement's pages. Without
 * `orOtherRelations` it takes none: a relation keeps as many cached pages as the snapshot showed.
 */
export function seedSwaps(
  start: readonly number[],
  log: RequestLog,
  relationOf: (page: number) => number,
  isStarting: (page: number) => boolean,
  orOtherRelations = true,
): Map<number, number> {
  const swaps = new Map<number, number>();
  const free = new Map<number, number[]>();
  for (let k = start.length - 1; k >= 0; k--) {
    const p = start[k];
    if (log.requested.has(p)) continue;
    const r = relationOf(p);
    const list = free.get(r) ?? [];
    list.push(p);
    free.set(r, list);
  }
  for (const page of log.read) {
    if (isStarting(page)) continue;
    const victim = free.get(relationOf(page))?.pop() ?? (orOtherRelations ? free.get(-1)?.pop() : undefined);
    if (victim !== undefined) swaps.set(victim, page);
  }
  return swaps;
}

/** The assumption a prediction shows for run 1 when it starts so. */
export function cachedStatementAssumption(why: string): string {
  return `run 1 finds every page it requests cached: ${why}; the pages the model places by guess take the places of cached pages of the same relation`;
}
