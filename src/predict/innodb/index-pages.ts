// Where an InnoDB index's pages are in the simulation, shared by the scan, lookup and insert traces.

export interface IndexPages {
  root: number;
  /** One node page per level between the root and the leaves. */
  internal: number[];
  /** Leaf k in key order (cached pages first take the places the modelled layout leaves uncached). */
  leaves: (k: number) => number;
  /** The right-most leaf, where ascending keys are appended. */
  lastLeaf: number;
  /** Where pages the statement creates are numbered (past the end of the file). */
  newPages: number;
}

/** Bytes of an index page that hold records: less the file and page headers, infimum, supremum, trailer and two directory slots. */
export function usableBytes(pageSize: number): number {
  return pageSize - 132;
}

/**
 * How full an index's leaves are: rows × bytes per record over leaf bytes (15/16 when unknown); a record's
 * share of the page directory is a third of a 2-byte slot (4–8 records per slot).
 */
export function leafFill(f: { rows: number; leafPages: number; entryBytes: number }, pageSize: number): number {
  const usable = usableBytes(pageSize);
  return f.rows > 0 && f.leafPages > 0 ? Math.min(1, Math.max(0.5, (f.rows * (f.entryBytes + 0.33)) / (f.leafPages * usable))) : 15 / 16;
}

/** Records a full leaf holds. */
export function leafCapacity(f: { entryBytes: number }, pageSize: number): number {
  return Math.max(2, Math.floor(usableBytes(pageSize) / (f.entryBytes + 0.33)));
}

/** A seed from what identifies a plan node or a write, so that every run of a statement visits the same pages. */
export function seedOf(parts: Array<string | number>): number {
  let h = 2166136261;
  for (const ch of parts.join('\u0000')) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}
