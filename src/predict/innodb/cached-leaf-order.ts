// Where in key order the cached leaves of an index lie where their page numbers do not tell: a tree grown by
// inserts in random key order has its leaves anywhere in the file, and long values allocated between them move
// the cached leaves' numbers off the layout's. From each page's first access before run 1
// (INNODB_BUFFER_PAGE_LRU, pool-walk.ts): a scan or range reads a B-tree's leaves in key order at a steady
// pace, so the leaves one pass read (first accesses without a pause) lie along the keys as their reads lie
// along the pass: after a full scan in a pool smaller than the table, the leaves it made young lie all along
// the keys, and those it read last nearer their end. Before, such leaves took the keys' first places, where
// the next scan meets them before it evicts anything. (A pass over part of the keys is spread over all of
// them: in a tree laid out in key order the layout keeps such pages at the first places left instead.) Pure.

/** A pause between first accesses longer than this ends a pass: within a scan, leaves are read a fraction of a ms apart. */
const PASS_GAP_MS = 25;

/**
 * One of `open` free places in key order for each leaf (simulated page id), from its first access as an
 * age in ms; leaves with no access time read take the places left, from the first.
 */
export function cachedLeafSlots(leaves: number[], ages: ReadonlyMap<number, number>, open: number): Array<number | undefined> {
  const slots: Array<number | undefined> = new Array(leaves.length);
  const taken = new Uint8Array(open);
  const take = (want: number): number | undefined => {
    for (let d = 0; d < open; d++) for (const k of [want + d, want - d]) if (k >= 0 && k < open && !taken[k]) return (taken[k] = 1), k;
    return undefined;
  };
  // Oldest first: passes in the order they ran, each pass's leaves in the order it read them.
  const timed = leaves.flatMap((p, j) => {
    const age = ages.get(p);
    return age === undefined ? [] : [{ j, age }];
  });
  timed.sort((a, b) => b.age - a.age);
  for (const pass of passes(timed)) {
    const span = pass[0].age - pass[pass.length - 1].age;
    for (const x of pass) slots[x.j] = take(span > 0 ? Math.round(((pass[0].age - x.age) / span) * (open - 1)) : open - 1);
  }
  const timedAt = new Set(timed.map((x) => x.j));
  leaves.forEach((_, j) => {
    if (!timedAt.has(j)) slots[j] = take(0);
  });
  return slots;
}

/** Leaves sorted oldest first, split where their first accesses pause. */
function passes<T extends { age: number }>(sorted: T[]): T[][] {
  const out: T[][] = [];
  for (const x of sorted) {
    const last = out[out.length - 1];
    if (last && last[last.length - 1].age - x.age <= PASS_GAP_MS) last.push(x);
    else out.push([x]);
  }
  return out;
}
