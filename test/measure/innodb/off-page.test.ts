// The pages a table's long values take outside its rows, read after the runs from a sample of its rows on a real
// MariaDB. The sample is spread over the clustered key: a table whose first rows in key order (its oldest) hold no
// long values, and a twentieth of the rest one of 12 kB each, is counted by the values the whole table holds.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mariadb, need, skipUnless } from '../../support/engines';
import { labServer, measureLab } from '../../support/lab';
import { mariadbQuery } from '../../support/sql';
import type { InnodbRunInput } from '../../../src/predict/innodb/facts';

const availability = mariadb();

describe('MariaDB: long values stored off the rows’ pages, sampled after the runs', skipUnless(availability), () => {
  const server = labServer(() => need(availability), '64M', { rows: 1_000, k: 'id', index: false }, [
    'CREATE TABLE lab.n (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, amount INT NOT NULL, note TEXT) ENGINE=InnoDB',
    "INSERT INTO lab.n (amount, note) SELECT seq, IF(seq > 15000 AND seq MOD 20 = 0, REPEAT('n', 12000), 'short') FROM lab.seq_1_to_50000",
    'ANALYZE TABLE lab.n',
  ]);

  test('a sample spread over the key finds the long values the first rows lack', async () => {
    let run: InnodbRunInput | undefined;
    await measureLab(server(), 'SELECT COUNT(*), SUM(amount) FROM n', { runs: 1, onPredictionInput: (i) => (run = (i.runs as InnodbRunInput[])[0]) });
    const [truth] = await mariadbQuery<{ n: string }>(server().port, 'SELECT COUNT(*) AS n FROM lab.n WHERE LENGTH(note) > 8000');
    const values = Number(truth.n);
    assert.equal(values, 1_750, 'the premise: 1,750 values of 12 kB, a page each, none in the first 15,000 rows');
    const storage = run?.rowStorage?.['lab.n'];
    assert.ok(storage, 'the row storage was read');
    assert.equal(storage.rows, 50_000);
    assert.ok(Math.abs(storage.offPagePages - values) <= 0.15 * values, `${storage.offPagePages} off-page pages sampled, ${values} in the table`);
  });
});
