// Names for what the editor saves and lists: a file name from the statement and the day, a statement on
// one line. Pure.

export function oneLine(sql: string, max = 80): string {
  const s = sql.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** "select-count-from-orders-2026-12-01.json": the statement's first words, the day it was measured. */
export function exportName(statement: string, savedAt: string, ext: string): string {
  const words = statement
    .replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ')
    .toLowerCase()
    .match(/[a-z0-9_]+/g)
    ?.slice(0, 6)
    .join('-')
    .slice(0, 60);
  return `${words || 'bufferlens-report'}-${savedAt.slice(0, 10)}.${ext}`;
}
