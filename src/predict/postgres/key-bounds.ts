// The first key an index scan of one integer column reads, from its index condition as EXPLAIN prints it:
// "((t.id >= 100) AND (t.id <= 199))" starts at 100 walking forward, at 199 walking backward.
const BOUND = /\((?:[A-Za-z_][\w$]*\.|"[^"]+"\.)?(?:"([^"]+)"|([A-Za-z_][\w$]*)) (>=|>|<=|<|=) '?(-?\d+)'?(?:::\w+)?\)/g;

export function firstKey(indexCond: string | undefined, column: string, backward: boolean): number | undefined {
  if (!indexCond) return undefined;
  let lower: number | undefined;
  let upper: number | undefined;
  for (const m of indexCond.matchAll(BOUND)) {
    if ((m[1] ?? m[2]) !== column) continue;
    const v = Number(m[4]);
    if (m[3] === '=') lower = upper = v;
    else if (m[3] === '>=') lower = Math.max(lower ?? -Infinity, v);
    else if (m[3] === '>') lower = Math.max(lower ?? -Infinity, v + 1);
    else if (m[3] === '<=') upper = Math.min(upper ?? Infinity, v);
    else upper = Math.min(upper ?? Infinity, v - 1);
  }
  return backward ? upper : lower;
}

/** "(t.id = ANY ('{5,500,5000}'::integer[]))": the column's array of whole-number keys, sorted and distinct. */
const ARRAY = /\((?:[A-Za-z_][\w$]*\.|"[^"]+"\.)?(?:"([^"]+)"|([A-Za-z_][\w$]*)) = ANY \('\{([-\d,]+)\}'::\w+\[\]\)\)/g;

export function arrayKeys(indexCond: string | undefined, column: string | undefined): number[] | undefined {
  if (!indexCond || !column) return undefined;
  for (const m of indexCond.matchAll(ARRAY)) {
    if ((m[1] ?? m[2]) !== column) continue;
    const keys = m[3].split(',').map(Number);
    if (keys.every(Number.isSafeInteger)) return [...new Set(keys)].sort((a, b) => a - b);
  }
  return undefined;
}

/** "(t.id = ANY ('{…}'::uuid[]))" with keys of any type: the column's array, its elements as EXPLAIN prints them. */
const ANY_ARRAY = /\((?:[A-Za-z_][\w$]*\.|"[^"]+"\.)?(?:"([^"]+)"|([A-Za-z_][\w$]*)) = ANY \('\{((?:[^'}]|'')*)\}'::[\w ]+\[\]\)\)/g;

/**
 * How many distinct keys an `= ANY` array holds, whatever their type (UUIDs, text, dates): where they
 * cannot be placed by value, each still takes a descent of its own.
 */
export function arrayKeyCount(indexCond: string | undefined, column: string | undefined): number | undefined {
  if (!indexCond || !column) return undefined;
  for (const m of indexCond.matchAll(ANY_ARRAY)) {
    if ((m[1] ?? m[2]) !== column || m[3] === '') continue;
    // Elements are separated by commas outside double quotes (a quoted element may hold one).
    const elements = m[3].match(/"(?:[^"\\]|\\.)*"|[^,]+/g) ?? [];
    return new Set(elements).size;
  }
  return undefined;
}

/**
 * Whether an index condition leaves the index's leading column unbounded: it names later columns only
 * ("seq BETWEEN …" through a key on (cust_id, seq)). A B-tree then has no first key to descend to: it
 * walks every leaf, testing each entry (PostgreSQL 18's skip scan repositions per leading value instead,
 * which where the values outnumber the leaves reads them all too). False where the condition names the
 * leading column anywhere, or where the index's first column is an expression (which the text may spell
 * any way).
 */
export function leadingUnbounded(indexCond: string | undefined, leading: string | null | undefined): boolean {
  if (!indexCond || !leading) return false;
  const name = leading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return !new RegExp(`(^|[^\\w$"])("${name}"|${name})(?![\\w$"])`).test(indexCond);
}
