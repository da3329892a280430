// pgbench's script syntax and its random functions, as a workload reads them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, ExpressionError, type Value } from '../../src/workload/expression';
import { parseExpression } from '../../src/workload/expression-parser';
import { drawExponential, drawGaussian, drawPareto, drawSpecial, drawZipfian } from '../../src/workload/distributions';
import { executeScript, parseScript, ScriptError, splitWeight, substitute } from '../../src/workload/script';
import { builtinScript } from '../../src/workload/builtin-scripts';
import { SeededRandom } from '../../src/sim/random';
import { keyCondition } from '../../src/workload/key-binding';
import { ShapeEmitter } from '../../src/workload/shapes';
import { btreePath } from '../../src/workload/layout';

const ev = (text: string, vars: Record<string, number> = {}): Value =>
  evaluate(parseExpression(text), {
    variables: new Map(Object.entries(vars).map(([k, v]) => [k, { int: Number.isInteger(v), v } as Value])),
    random: new SeededRandom(1),
  });

describe('pgbench expressions', () => {
  test('integer arithmetic stays integer, as pgbench evaluates it; doubles where a double enters', () => {
    assert.deepEqual(ev('5 / 2'), { int: true, v: 2 });
    assert.deepEqual(ev('-7 / 2'), { int: true, v: -3 });
    assert.deepEqual(ev('5 / 2.0'), { int: false, v: 2.5 });
    assert.deepEqual(ev('100000 * :scale + 1', { scale: 10 }), { int: true, v: 1_000_001 });
    assert.deepEqual(ev('2 + 3 * 4 - (1 + 1)'), { int: true, v: 12 });
    assert.deepEqual(ev('17 % 5'), { int: true, v: 2 });
    assert.deepEqual(ev('least(3, 1, 2) + greatest(4, 9)'), { int: true, v: 10 });
    assert.deepEqual(ev('case when :a > 1 then 10 else 20 end', { a: 2 }), { int: true, v: 10 });
    assert.deepEqual(ev('1 << 4 | 1'), { int: true, v: 17 });
    assert.deepEqual(ev(':a = 1 and not :a <> 1', { a: 1 }), { int: true, v: 1 });
  });

  test('random() draws within its bounds, every value, uniformly', () => {
    const counts = new Map<number, number>();
    const ctx = { variables: new Map<string, Value>(), random: new SeededRandom(3) };
    const e = parseExpression('random(1, 10)');
    for (let i = 0; i < 20000; i++) {
      const v = evaluate(e, ctx).v;
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    assert.deepEqual(
      [...counts.keys()].sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    for (const c of counts.values()) assert.ok(c > 1800 && c < 2200, `count ${c}`);
  });

  test('errors name what is wrong', () => {
    assert.throws(() => parseExpression('random(1'), ExpressionError);
    assert.throws(() => parseExpression('permute(1, 2)'), /permute\(\) is not supported/);
    assert.throws(() => parseExpression('random(1, 2, 3)'), /takes 2 arguments/);
    assert.throws(() => ev(':missing + 1'), /:missing is not set/);
    assert.throws(() => ev('1 / 0'), /division by zero/);
    assert.throws(() => ev('random_zipfian(1, 10, 0.5)'), /1.001 to 1000/);
  });
});

describe("sysbench's distributions", () => {
  test('special (defaults): 75 % of the draws in the 1 % of the range around its middle, the rest bell-shaped around it', () => {
    const u = new SeededRandom(5);
    const n = 100_000;
    let middle = 0;
    let low = 0;
    for (let i = 0; i < n; i++) {
      const v = drawSpecial(u, 1, 1_000_000);
      assert.ok(v >= 1 && v <= 1_000_000);
      if (v >= 495_000 && v <= 505_001) middle++;
      if (v < 250_000) low++;
    }
    // 75 % special, plus the bell's own share of that 1 % (about 6 % of the other 25 %).
    assert.ok(Math.abs(middle / n - 0.765) < 0.01, `middle share ${middle / n}`);
    // The mean of 12 uniforms is under a quarter with probability about 0.2 %.
    assert.ok(low / n < 0.005, `low share ${low / n}`);
  });

  test('pareto (h = 0.2): 80 % of the draws in the lowest 20 % of the range; through the script language too', () => {
    const u = new SeededRandom(6);
    const n = 100_000;
    let first = 0;
    for (let i = 0; i < n; i++) if (drawPareto(u, 1, 1_000_000) <= 200_000) first++;
    assert.ok(Math.abs(first / n - 0.8) < 0.01, `share ${first / n}`);
    const ctx = { variables: new Map<string, Value>(), random: new SeededRandom(1) };
    for (const text of ['random_pareto(1, 100)', 'random_pareto(1, 100, 0.1)', 'random_special(1, 100)', 'random_special(1, 100, 5, 50, 6)']) {
      const v = evaluate(parseExpression(text), ctx);
      assert.ok(v.int && v.v >= 1 && v.v <= 100, `${text} = ${v.v}`);
    }
    assert.throws(() => evaluate(parseExpression('random_pareto(1, 100, 1.5)'), ctx), /h must be between 0 and 1/);
  });
});

describe('pgbench distributions', () => {
  test('zipfian: rank 1 is most frequent, frequency ∝ 1/rank^s', () => {
    const u = new SeededRandom(11);
    const n = 200_000;
    const counts = new Float64Array(1001);
    for (let i = 0; i < n; i++) counts[drawZipfian(u, 1, 1000, 1.2)]++;
    assert.ok(counts[1] > counts[2] && counts[2] > counts[4]);
    const ratio = counts[1] / counts[2];
    assert.ok(Math.abs(ratio - 2 ** 1.2) < 0.15, `p(1)/p(2) = ${ratio}, expected ${2 ** 1.2}`);
    assert.ok(counts.slice(1).every((c, i) => i + 1 <= 1000 || c === 0));
  });

  test('exponential: density falls by exp(-parameter) over the range; gaussian: centred', () => {
    const u = new SeededRandom(5);
    let low = 0;
    let high = 0;
    let sum = 0;
    for (let i = 0; i < 100_000; i++) {
      const e = drawExponential(u, 1, 100, 3);
      assert.ok(e >= 1 && e <= 100);
      if (e <= 10) low++;
      if (e > 90) high++;
      sum += drawGaussian(u, 1, 100, 2.5);
    }
    // Share of the first tenth: (1 − e^(−0.3)) / (1 − e^(−3)) ≈ 0.272; of the last: (e^(−2.7) − e^(−3)) / (1 − e^(−3)) ≈ 0.0183.
    assert.ok(Math.abs(low / 100_000 - 0.272) < 0.01, `first tenth ${low / 100_000}`);
    assert.ok(Math.abs(high / 100_000 - 0.0183) < 0.003, `last tenth ${high / 100_000}`);
    assert.ok(Math.abs(sum / 100_000 - 50.5) < 0.5);
  });
});

describe('pgbench scripts', () => {
  test('meta commands, SQL ending at semicolons, substitution that leaves ::casts alone', () => {
    const [s] = parseScript(
      "\\set aid random(1, 100)\n\\sleep 2 ms\nSELECT abalance::text\n  FROM t WHERE aid = :aid;\nUPDATE t SET x = ';' WHERE aid = :aid;\n",
      'a.sql',
    );
    assert.deepEqual(
      s.commands.map((c) => c.kind),
      ['set', 'sleep', 'sql', 'sql'],
    );
    const sql = s.commands.filter((c) => c.kind === 'sql');
    assert.equal(sql[0].line, 3);
    assert.equal(sql[1].line, 5);
    const run = executeScript(s, { variables: new Map(), random: new SeededRandom(2) });
    const aid = /aid = (\d+)/.exec(run.sql[0])![1];
    assert.match(run.sql[0], /abalance::text/);
    assert.equal(run.sql[1], `UPDATE t SET x = ';' WHERE aid = ${aid}`);
    assert.equal(run.sleepMicros, 2000);
    assert.equal(substitute('a = :x AND b = :y', new Map([['x', { int: false, v: 0.1 + 0.2 }]])), 'a = 0.3 AND b = :y');
  });

  test('weights: FILE@W, and one weighted script per "-- bufferlens: weight" line sharing the \\set lines before them', () => {
    assert.deepEqual(splitWeight('x.sql@7'), ['x.sql', 7]);
    assert.deepEqual(splitWeight('x.sql'), ['x.sql', 1]);
    const scripts = parseScript(
      '\\set id random(1, 1000)\n-- bufferlens: weight 9\nSELECT * FROM t WHERE id = :id;\n-- bufferlens: weight 1\n\\set n random(1, 5)\nUPDATE t SET v = :n WHERE id = :id;\n',
      'mix.sql',
    );
    assert.deepEqual(
      scripts.map((s) => [s.name, s.weight, s.commands.map((c) => c.kind).join(',')]),
      [
        ['mix.sql#1', 9, 'set,sql'],
        ['mix.sql#2', 1, 'set,set,sql'],
      ],
    );
  });

  test('bad scripts are refused with the file and line', () => {
    assert.throws(
      () => parseScript('\\set x\nSELECT 1;', 'b.sql'),
      (e: unknown) => e instanceof ScriptError && e.line === 1,
    );
    assert.throws(() => parseScript('\\if :x\nSELECT 1;\n\\endif', 'b.sql'), /b.sql:1: \\if is not supported/);
    assert.throws(() => parseScript('\\set x 1\n', 'b.sql'), /no SQL command/);
    assert.throws(() => parseScript('SELECT 1;\n-- bufferlens: weight 2\nSELECT 2;', 'b.sql'), /belongs to no weighted script/);
  });

  test("the built-ins are pgbench's, by name or prefix", () => {
    const [tpcb] = builtinScript('tpcb', 1)!;
    assert.equal(tpcb.commands.filter((c) => c.kind === 'sql').length, 7);
    const [sel] = builtinScript('select-only', 3)!;
    assert.equal(sel.weight, 3);
    assert.equal(builtinScript('nosuch', 1), undefined);
  });
});

describe('which variable feeds an index column', () => {
  // 100 leaves of 60 keys under one root: leaf k is page 1000 + k, the root page 9000.
  const index = btreePath(
    'pk',
    (k) => 1000 + k,
    (_level, k) => 9000 + k,
    100,
    60,
    400,
  );

  test('equality, ranges, BETWEEN, reversed operands, qualified columns, constants', () => {
    assert.deepEqual(keyCondition('SELECT 1 FROM t WHERE aid = :aid', 'aid'), { kind: 'equal', key: { variable: 'aid' } });
    assert.deepEqual(keyCondition('SELECT 1 FROM t a WHERE a.id BETWEEN :lo AND :hi', 'id'), {
      kind: 'range',
      from: { variable: 'lo' },
      to: { variable: 'hi' },
    });
    assert.deepEqual(keyCondition('SELECT 1 FROM t WHERE id >= :lo AND id < 500', 'id'), { kind: 'range', from: { variable: 'lo' }, to: { constant: 499 } });
    assert.deepEqual(keyCondition('SELECT 1 FROM t WHERE :v = k', 'k'), { kind: 'equal', key: { variable: 'v' } });
    assert.deepEqual(keyCondition('SELECT 1 FROM t WHERE kid = :v', 'id'), { kind: 'none' });
  });

  test("a variable with a constant added or taken: sysbench's ranges as a pgbench script writes them", () => {
    assert.deepEqual(keyCondition('SELECT c FROM sbtest1 WHERE id BETWEEN :r AND :r + 99 ORDER BY c', 'id'), {
      kind: 'range',
      from: { variable: 'r' },
      to: { variable: 'r', offset: 99 },
    });
    assert.deepEqual(keyCondition('SELECT 1 FROM t WHERE id >= :r - 10 AND id <= :r+10', 'id'), {
      kind: 'range',
      from: { variable: 'r', offset: -10 },
      to: { variable: 'r', offset: 10 },
    });
    assert.deepEqual(keyCondition('SELECT 1 FROM t WHERE :r + 1 = id', 'id'), { kind: 'equal', key: { variable: 'r', offset: 1 } });
    // The range spans the rows between the variable's value and the offset's: 100 rows, two leaves of 60.
    const out: number[] = [];
    new ShapeEmitter().emit(
      { kind: 'range', index, keyMin: 1, keyMax: 6000, from: { variable: 'r' }, to: { variable: 'r', offset: 99 }, rowsPerKeyUnit: 1 },
      new Map([['r', { int: true, v: 1 }]]),
      out,
    );
    assert.deepEqual(out, [9000, 1000, 1001]);
  });

  test("InnoDB's index dive before a range: the first bound's path, the second's where it parts, the leaves between", () => {
    const range = (dive: 'shared' | 'separate', to: number) => {
      const out: number[] = [];
      const shape = { kind: 'range' as const, index, keyMin: 1, keyMax: 6000, from: { constant: 1 }, to: { constant: to }, rowsPerKeyUnit: 1, dive };
      new ShapeEmitter().emit(shape, new Map(), out);
      return out;
    };
    // Within one leaf the dive is one path; the scan follows.
    assert.deepEqual(range('shared', 50), [9000, 1000, 9000, 1000]);
    // Two leaves: MariaDB's shared descent adds only the second leaf.
    assert.deepEqual(range('shared', 100), [9000, 1000, 1001, 9000, 1000, 1001]);
    assert.deepEqual(range('separate', 100), [9000, 1000, 9000, 1001, 9000, 1000, 1001]);
    // Five leaves: the three between are read by the estimate too.
    assert.deepEqual(range('shared', 300), [9000, 1000, 1004, 1001, 1002, 1003, 9000, 1000, 1001, 1002, 1003, 1004]);
  });
});
