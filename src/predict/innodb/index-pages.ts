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

/** A seed from what identifies a plan node or a write, so that every run of a statement visits the same pages. */
export function seedOf(parts: Array<string | number>): number {
  let h = 2166136261;
  for (const ch of parts.join('\u0000')) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}
