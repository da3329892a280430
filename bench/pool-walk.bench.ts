// What reading the InnoDB pool costs a measurement, on a filled 256 MB pool (16,384 pages): before run 1,
// the two walks (the LRU list's summary, then residency, the prediction's seed and the undo pages from one filtered
// query) against the four separate queries they replaced, as the baseline in the same run; and a whole
// three-run measurement with residency against one without (`residency: 'never'`). Quiet, then with every
// core kept busy. Printed as ratios, not asserted.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { createConnection, type Connection } from 'mysql2/promise';
import { findInnodbServers, LocalInnodbServer } from '../src/local-server/mariadb';
import { parseConnectionUrl } from '../src/db/connection-url';
import { measure } from '../src/measure/measure';
import { readPoolWalk } from '../src/measure/innodb/pool-walk';
import { readInnodbResidency, resolveInnodbRelations, type InnodbRelation } from '../src/measure/innodb/residency';

async function median(times: number, fn: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
}

/** The reads before run 1 as they were: residency, the LRU list's summary, the relations' pages, the undo pages. */
async function separateReads(c: Connection, rels: InnodbRelation[]): Promise<void> {
  await readInnodbResidency(c, rels, true);
  await c.query(`SELECT COUNT(*) AS n, MIN(CASE WHEN IS_OLD = 'YES' THEN LRU_POSITION END) AS firstOld FROM information_schema.INNODB_BUFFER_PAGE_LRU`);
  await c.query(
    `SELECT TABLE_NAME AS t, INDEX_NAME AS i, PAGE_NUMBER AS p, LRU_POSITION AS pos FROM information_schema.INNODB_BUFFER_PAGE_LRU WHERE TABLE_NAME IN (?)`,
    [[...new Set(rels.map((r) => r.innodbName))]],
  );
  await c.query(
    `SELECT PAGE_TYPE AS t, PAGE_NUMBER AS p FROM information_schema.INNODB_BUFFER_PAGE_LRU
      WHERE SPACE <= 0 AND PAGE_TYPE IN ('SYSTEM', 'UNDO_LOG', 'FILE_SPACE_HEADER', 'IBUF_BITMAP', 'INODE') ORDER BY LRU_POSITION`,
  );
}

function busyCores(): ChildProcess[] {
  return cpus().map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

async function main(): Promise<void> {
  const binaries = findInnodbServers()[0];
  if (!binaries) throw new Error('no MariaDB/MySQL server binaries');
  const server = await LocalInnodbServer.start({ binaries, settings: { 'innodb-buffer-pool-size': '256M' } });
  const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
  try {
    await c.query('CREATE DATABASE b');
    await c.query('USE b');
    await c.query('CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, pad CHAR(200) NOT NULL, KEY k (k)) ENGINE=InnoDB');
    await c.query(`INSERT INTO t SELECT seq, FLOOR(RAND(1) * 1000000), 'p' FROM seq_1_to_1000000`);
    await c.query('ANALYZE TABLE t');
    await c.query('SELECT COUNT(*) FROM t FORCE INDEX (PRIMARY) WHERE pad <> ""');
    const [[pool]] = (await c.query(`SELECT COUNT(*) AS n FROM information_schema.INNODB_BUFFER_PAGE_LRU`)) as unknown as [Array<{ n: number }>];
    const rels = await resolveInnodbRelations(c, [{ schema: 'b', table: 't' }]);
    const target = parseConnectionUrl(server.url('b'));
    const options = {
      sql: 'SELECT pad FROM t WHERE id BETWEEN 5000 AND 5400',
      runs: 3,
      cold: 'no' as const,
      commit: false,
      timing: false,
      timeoutMs: 60_000,
      whatIf: true,
    };
    console.log(`${binaries.product} ${binaries.version}, ${Number(pool.n).toLocaleString('en-US')} pages in the LRU list, median (ms)`);
    for (const load of ['quiet', 'every core busy']) {
      const busy = load === 'quiet' ? [] : busyCores();
      try {
        const before = await median(7, () => separateReads(c, rels));
        const walk = await median(7, () => readPoolWalk(c, rels, 0));
        const full = await median(5, () => measure(target, options));
        const none = await median(5, () => measure(target, { ...options, residency: 'never' }));
        console.log(
          `${load}: before run 1, four walks ${before.toFixed(0)} → two ${walk.toFixed(0)} (${(before / walk).toFixed(1)}× less); ` +
            `measurement of 3 runs ${full.toFixed(0)} with residency, ${none.toFixed(0)} without (+${(full - none).toFixed(0)}, ${(full / none).toFixed(2)}×)`,
        );
      } finally {
        for (const b of busy) b.kill();
      }
    }
  } finally {
    await c.end().catch(() => undefined);
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
