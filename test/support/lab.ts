// A private MariaDB holding lab.s (createLabSbtest) for one describe block, and a statement measured on it
// as BufferLens measures (rolled back, no timing, no what-if). The InnoDB prediction tests share this set-up.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { InnodbServerBinaries } from '../../src/local-server/mariadb';
import { LocalInnodbServer } from '../../src/local-server/mariadb';
import { measure } from '../../src/measure/measure';
import { parseConnectionUrl } from '../../src/db/connection-url';
import type { Report } from '../../src/shared/report';
import type { MeasureOptions } from '../../src/measure/options';
import { createLabSbtest, mariadbQuery } from './sql';

/**
 * Registers the block's before/after hooks: a server with `pool` of buffer pool, lab.s in the given shape and
 * then `setup` run on it; the returned function gives the server once started.
 */
export function labServer(
  binaries: () => InnodbServerBinaries,
  pool: string,
  table: Parameters<typeof createLabSbtest>[1],
  setup: string[] = [],
): () => LocalInnodbServer {
  let server: LocalInnodbServer | undefined;
  before(async () => {
    server = await LocalInnodbServer.start({ binaries: binaries(), settings: { 'innodb-buffer-pool-size': pool } });
    await createLabSbtest(server.port, table);
    for (const q of setup) await mariadbQuery(server.port, q);
  });
  after(async () => server?.stop());
  return () => server!;
}

export function measureLab(
  server: LocalInnodbServer,
  sql: string,
  o: { runs?: number; cold?: 'no' | 'try'; onPredictionInput?: MeasureOptions['onPredictionInput'] } = {},
): Promise<Report> {
  return measure(parseConnectionUrl(server.url('lab')), {
    sql,
    runs: o.runs ?? 3,
    cold: o.cold ?? 'no',
    commit: false,
    timing: false,
    timeoutMs: 60_000,
    whatIf: false,
    ...(o.onPredictionInput ? { onPredictionInput: o.onPredictionInput } : {}),
  });
}

/** Every run's logical reads predicted within 5 % (or 1 get) of the measured. */
export function assertLogicalWithin(report: Report, label: string): void {
  for (const r of report.runs) {
    const [m, p] = [r.measured.logicalReads!, r.predicted.logicalReads!];
    assert.ok(Math.abs(m - p) <= Math.max(1, 0.05 * m), `${label}, run ${r.run}: ${m} logical measured, ${p} predicted`);
  }
}

/** Run 1's assumptions, one a line. */
export const assumptions = (report: Report): string => report.runs[0].prediction!.assumptions.join('\n');
