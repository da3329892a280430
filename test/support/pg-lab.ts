// A statement measured on a private PostgreSQL as BufferLens measures it (run 1 as found, writes rolled back,
// no timing, no what-if): the PostgreSQL prediction tests share this call, as the InnoDB ones share measureLab.
import type { LocalPostgres } from '../../src/local-server/postgres';
import { measure } from '../../src/measure/measure';
import type { MeasureOptions } from '../../src/measure/options';
import { parseConnectionUrl } from '../../src/db/connection-url';
import type { Report } from '../../src/shared/report';

export function measurePg(server: LocalPostgres, sql: string, o: Partial<MeasureOptions> = {}): Promise<Report> {
  return measure(parseConnectionUrl(server.url()), { sql, runs: 3, cold: 'no', commit: false, timing: false, timeoutMs: 60_000, whatIf: false, ...o });
}
