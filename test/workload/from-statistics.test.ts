// Turning a counted statement into a script: placeholders compared with an indexed numeric column are drawn
// over its range; values an UPDATE writes, or an INSERT puts in a column no index orders, decide no page and
// become a constant, said so; anything else leaves the statement out with the reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generalise } from '../../src/workload/from-statistics';

const ranges = async (_table: string, column: string): Promise<[number, number] | undefined> => (/^(id|aid|tid|bid)$/i.test(column) ? [1, 100] : undefined);

test('an UPDATE: the value it writes is a constant, its key drawn (pgbench, MariaDB digest)', async () => {
  for (const text of ['UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2', 'UPDATE `acct` SET `v` = `v` + ? WHERE ID = ? ']) {
    const g = await generalise({ text, calls: 7 }, 3, ranges);
    assert.ok('script' in g, JSON.stringify(g));
    assert.match(
      g.script,
      /^-- bufferlens: weight 7\n-- :s3_p1: a value written, which decides no page \(set to 1\)\n\\set s3_p1 1\n\\set s3_p2 random\(1, 100\)\nUPDATE .* = :s3_p2;$/,
    );
  }
});

test('an INSERT: indexed numeric columns drawn over their range, the others a constant', async () => {
  const g = await generalise(
    { text: 'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)', calls: 2 },
    1,
    ranges,
  );
  assert.ok('script' in g, JSON.stringify(g));
  for (const k of [1, 2, 3]) assert.match(g.script, new RegExp(`\\\\set s1_p${k} random\\(1, 100\\)`));
  assert.match(g.script, /\\set s1_p4 1\n/);
  assert.match(g.script, /VALUES \(:s1_p1, :s1_p2, :s1_p3, :s1_p4, CURRENT_TIMESTAMP\);$/);
});

test('left out, with the reason: a filter on a column no index orders, a placeholder compared with nothing, no table', async () => {
  assert.deepEqual(await generalise({ text: 'SELECT count(*) FROM acct WHERE pad = $1', calls: 1 }, 1, ranges), {
    skipped: 'acct.pad is not a numeric column with an index to read its range from',
  });
  assert.deepEqual(await generalise({ text: 'SELECT id FROM acct LIMIT $1', calls: 1 }, 1, ranges), {
    skipped: 'placeholder $1 is not compared with a column',
  });
  assert.deepEqual(await generalise({ text: 'SELECT pg_stat_statements_reset()', calls: 1 }, 1, ranges), { skipped: 'it reads no table of the database' });
});
