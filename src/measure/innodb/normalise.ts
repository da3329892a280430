// The three numbers for InnoDB, per product. On MySQL 8.x pages brought in by linear read-ahead are not
// in Innodb_buffer_pool_reads, while random read-ahead pages are in both; on MariaDB 10.x every page read,
// read-ahead included, is in Innodb_buffer_pool_reads (it equals Innodb_pages_read). Verified on MariaDB
// 10.11 by test/measure/innodb (innodb_read_ahead_threshold=0 against the default); the MySQL mapping comes
// from its source (buf0rea.cc) and is tested over recorded server answers.
import type { Reads, ReadsNotes } from '../../shared/report';
import type { InnodbProduct } from './server-info';

export function normaliseInnodb(product: InnodbProduct, d: Record<string, number>): { measured: Reads; notes: ReadsNotes } {
  const requests = d.Innodb_buffer_pool_read_requests;
  const reads = d.Innodb_buffer_pool_reads;
  const linear = d.Innodb_buffer_pool_read_ahead;
  const random = d.Innodb_buffer_pool_read_ahead_rnd ?? 0;
  const readAhead = linear === undefined ? null : linear + random;
  let physical: number | null;
  let physicalNote: string;
  if (reads === undefined) {
    physical = null;
    physicalNote = 'Innodb_buffer_pool_reads is not reported by this server';
  } else if (product === 'mariadb') {
    physical = readAhead === null ? null : reads - readAhead;
    physicalNote = 'Δ Innodb_buffer_pool_reads − Δ read-ahead: on MariaDB _reads counts every page read, read-ahead included';
  } else {
    physical = reads - random;
    physicalNote = 'Δ Innodb_buffer_pool_reads − Δ _read_ahead_rnd: on MySQL linear read-ahead pages are not in _reads, random read-ahead pages are';
  }
  return {
    measured: { logicalReads: requests ?? null, physicalReads: physical, readAhead },
    notes: {
      logicalReads: "Δ Innodb_buffer_pool_read_requests (global counter, calibrated for the snapshots' own cost)",
      physicalReads: `${physicalNote}: pages read synchronously because they were missing; a read may come from the OS page cache unless O_DIRECT`,
      readAhead: 'Δ Innodb_buffer_pool_read_ahead + Δ _read_ahead_rnd: pages prefetched by linear and random read-ahead',
    },
  };
}

/** Subtracts what the snapshot queries themselves cost (measured on an empty statement), never below 0. */
export function subtractCalibration(d: Record<string, number>, calibration: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = { ...d };
  for (const [k, c] of Object.entries(calibration)) {
    if (out[k] !== undefined && c > 0 && !k.startsWith('metric.ibuf_size')) out[k] = Math.max(0, out[k] - c);
  }
  return out;
}
