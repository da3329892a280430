// sysbench's OLTP transactions written in the workload script language, for the checks against sysbench.

/** oltp_read_only's transaction as sysbench 1.0 sends it (oltp_common.lua): each statement draws its own key. */
export function readOnlyScript(rows: number, range: number, randType: string): string {
  // sysbench.rand.default as --rand-type makes it, in the script language.
  const draw = { uniform: 'random', special: 'random_special', pareto: 'random_pareto' }[randType];
  if (!draw) throw new Error(`--rand-type ${randType}: uniform, special or pareto`);
  const points = Array.from({ length: 10 }, (_, i) => `\\set id${i} ${draw}(1, ${rows})\nSELECT c FROM sbtest1 WHERE id = :id${i};`);
  const ranges = [
    'SELECT c FROM sbtest1 WHERE id BETWEEN :r0 AND :r0 + RANGE',
    'SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN :r1 AND :r1 + RANGE',
    'SELECT c FROM sbtest1 WHERE id BETWEEN :r2 AND :r2 + RANGE ORDER BY c',
    'SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN :r3 AND :r3 + RANGE ORDER BY c',
  ].map((sql, i) => `\\set r${i} ${draw}(1, ${rows})\n${sql.replace('RANGE', String(range - 1))};`);
  return ['BEGIN;', ...points, ...ranges, 'COMMIT;', ''].join('\n');
}
