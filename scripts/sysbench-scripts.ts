// sysbench's OLTP transactions written in the workload script language, for the checks against sysbench.

export type OltpTest = 'oltp_read_only' | 'oltp_read_write' | 'oltp_write_only';

/** sysbench.rand.default as --rand-type makes it, in the script language. */
function drawFunction(randType: string): string {
  const draw = { uniform: 'random', special: 'random_special', pareto: 'random_pareto' }[randType];
  if (!draw) throw new Error(`--rand-type ${randType}: uniform, special or pareto`);
  return draw;
}

/** sysbench's c and pad values are random digits in a fixed template; any value of that width stands for them. */
const C_VALUE = `'${'12345678901-'.repeat(10).slice(0, 119)}'`;
const PAD_VALUE = `'${'12345678901-'.repeat(5).slice(0, 59)}'`;

/**
 * One transaction of sysbench 1.0's OLTP tests as oltp_common.lua sends it, each statement drawing its own
 * key: ten point selects and four ranges (read-only, read-write), then an index update, a non-index update
 * and a delete followed by the insert of the same id with a new k (read-write, write-only).
 */
export function oltpScript(test: OltpTest, rows: number, range: number, randType: string): string {
  const draw = drawFunction(randType);
  const reads =
    test === 'oltp_write_only'
      ? []
      : [
          ...Array.from({ length: 10 }, (_, i) => `\\set id${i} ${draw}(1, ${rows})\nSELECT c FROM sbtest1 WHERE id = :id${i};`),
          ...[
            'SELECT c FROM sbtest1 WHERE id BETWEEN :r0 AND :r0 + RANGE',
            'SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN :r1 AND :r1 + RANGE',
            'SELECT c FROM sbtest1 WHERE id BETWEEN :r2 AND :r2 + RANGE ORDER BY c',
            'SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN :r3 AND :r3 + RANGE ORDER BY c',
          ].map((sql, i) => `\\set r${i} ${draw}(1, ${rows})\n${sql.replace('RANGE', String(range - 1))};`),
        ];
  const writes =
    test === 'oltp_read_only'
      ? []
      : [
          `\\set u0 ${draw}(1, ${rows})\nUPDATE sbtest1 SET k = k + 1 WHERE id = :u0;`,
          `\\set u1 ${draw}(1, ${rows})\nUPDATE sbtest1 SET c = ${C_VALUE} WHERE id = :u1;`,
          `\\set d0 ${draw}(1, ${rows})\n\\set k0 ${draw}(1, ${rows})\nDELETE FROM sbtest1 WHERE id = :d0;`,
          `INSERT INTO sbtest1 (id, k, c, pad) VALUES (:d0, :k0, ${C_VALUE}, ${PAD_VALUE});`,
        ];
  return ['BEGIN;', ...reads, ...writes, 'COMMIT;', ''].join('\n');
}
