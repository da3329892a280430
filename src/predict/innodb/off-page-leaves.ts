// The clustered index as its rows are stored, where a sample of them was read after the last run (measure/innodb/
// off-page.ts): its records' average bytes, which its declared column sizes overstate for variable-length
// columns, and its leaves, which n_leaf_pages overcounts by the pages of long values stored off the rows'
// pages (InnoDB allocates them from the leaf segment). Pure.
import type { InnodbIndexFacts } from './facts';

type RowStorage = Record<string, { offPagePages: number; recordBytes: number; sampled?: number; rows?: number }>;

export function withOffPageLeaves(indexes: InnodbIndexFacts[], storage: RowStorage | undefined): { indexes: InnodbIndexFacts[]; notes: string[] } {
  const notes: string[] = [];
  const out = withCountedRows(indexes, storage, notes).map((f) => {
    const s = f.clustered ? storage?.[f.reportName] : undefined;
    if (!s) return f;
    const withBytes = { ...f, entryBytes: s.recordBytes };
    const off = s.offPagePages;
    const sample = s.sampled
      ? `${s.sampled.toLocaleString('en-US')} rows' stored lengths, read after the last run`
      : "the rows' stored lengths, read after the last run";
    notes.push(`${f.reportName}: records of ${s.recordBytes.toLocaleString('en-US')} bytes on average (${sample})`);
    if (off <= 0 || off >= f.leafPages) return withBytes;
    const leafPages = f.leafPages - off;
    notes.push(
      `${f.reportName}: ${off.toLocaleString('en-US')} of the ${f.leafPages.toLocaleString('en-US')} pages its statistics count as leaves hold long values ` +
        `stored off the rows' pages (${sample}, scaled to its rows): ${leafPages.toLocaleString('en-US')} leaves of rows, the others between them`,
    );
    return { ...withBytes, leafPages, sizePages: Math.max(leafPages, f.sizePages - off), offPagePages: off };
  });
  return { indexes: out, notes };
}

/**
 * Every index of a table whose rows were counted after the runs takes that count for the statistics'
 * estimate (a sample of leaf pages, a few per cent off): the leaves' fill is rows over leaves.
 */
function withCountedRows(indexes: InnodbIndexFacts[], storage: RowStorage | undefined, notes: string[]): InnodbIndexFacts[] {
  const counted = new Map<string, number>();
  for (const f of indexes) {
    const rows = f.clustered ? storage?.[f.reportName]?.rows : undefined;
    if (rows === undefined || rows <= 0) continue;
    counted.set(f.table, rows);
    if (rows !== f.rows)
      notes.push(
        `${f.reportName}: ${rows.toLocaleString('en-US')} rows counted after the last run (the statistics estimated ${f.rows.toLocaleString('en-US')})`,
      );
  }
  return indexes.map((f) => (counted.has(f.table) ? { ...f, rows: counted.get(f.table)! } : f));
}
