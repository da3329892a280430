// Click → report in a real VS Code against `bufferlens measure` from a terminal, on the same statement and
// server: the editor's own cost on top of the measurement. Each engine gets a private server and its own
// code-server; both sides run alternately, quiet and then with every core kept busy by spinning processes.
// Prints medians and the editor's excess over the command line (the goal: at most 0.3 s); not a timed test.
// BENCH_ROUNDS (5), BENCH_ENGINE (postgresql | mariadb; both when unset); BENCH_LOG=1 prints the editor's
// requests and the BufferLens log with times, to see where a slow click went.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createConnection } from 'mysql2/promise';
import type { Browser, Frame, Page } from 'playwright-core';
import { findSystemPostgres, LocalPostgres } from '../src/local-server/postgres';
import { findInnodbServers, LocalInnodbServer } from '../src/local-server/mariadb';
import { CHROMIUM, launch } from '../test/support/browser';
import { codeServer } from '../test/support/code-server';
import { filesNamed, findInFrames, openWorkspaceFile, packageExtension, startWorkbench } from '../test/support/workbench';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const GOAL_S = 0.3;

interface Subject {
  title: string;
  url: string;
  /** The connection profile the editor is given (no password: the private servers trust loopback). */
  profile: Record<string, unknown>;
  sql: string;
  stop(): Promise<void>;
}

async function postgresSubject(): Promise<Subject> {
  const binaries = findSystemPostgres()[0];
  if (!binaries) throw new Error('no PostgreSQL server binaries');
  const server = await LocalPostgres.start({ binaries, settings: { shared_buffers: '128MB' } });
  const c = new Client({ connectionString: server.url() });
  await c.connect();
  await c.query('CREATE EXTENSION pg_buffercache');
  await c.query(`CREATE TABLE t AS SELECT g AS id, md5(g::text) AS payload FROM generate_series(1, 100000) g`);
  await c.query('ALTER TABLE t ADD PRIMARY KEY (id)');
  await c.query('VACUUM ANALYZE t');
  await c.end();
  return {
    title: `PostgreSQL ${binaries.version}`,
    url: server.url(),
    profile: { name: 'bench', engine: 'postgresql', host: '127.0.0.1', port: server.port, user: 'postgres', database: 'postgres' },
    sql: 'SELECT count(*), max(payload) FROM t WHERE id BETWEEN 1000 AND 21000;',
    stop: () => server.stop(),
  };
}

async function mariadbSubject(): Promise<Subject> {
  const binaries = findInnodbServers()[0];
  if (!binaries) throw new Error('no MariaDB/MySQL server binaries');
  const server = await LocalInnodbServer.start({ binaries, settings: { 'innodb-buffer-pool-size': '128M' } });
  const c = await createConnection({ host: '127.0.0.1', port: server.port, user: 'root' });
  await c.query('CREATE DATABASE b');
  await c.query('USE b');
  await c.query('CREATE TABLE t (id INT PRIMARY KEY, payload CHAR(32)) ENGINE=InnoDB');
  await c.query('INSERT INTO t SELECT seq, MD5(seq) FROM seq_1_to_100000');
  await c.end();
  return {
    title: `${binaries.product} ${binaries.version}`,
    url: server.url('b'),
    profile: { name: 'bench', engine: 'mysql', host: '127.0.0.1', port: server.port, user: 'root', database: 'b' },
    sql: 'SELECT count(*), max(payload) FROM t WHERE id BETWEEN 1000 AND 21000;',
    stop: () => server.stop(),
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** One click on the lens until the report's runs table is on screen again, in seconds. */
async function clickToReport(page: Page, frame: Frame | undefined): Promise<{ seconds: number; frame: Frame }> {
  // The table of the report before is taken away, so the wait is for the new report's.
  await frame?.locator('#runs-table').evaluateAll((tables) => tables.forEach((t) => t.remove()));
  const lens = page.locator('.codelens-decoration a', { hasText: 'Measure buffer I/O' });
  await lens.waitFor({ timeout: 60_000 });
  const started = performance.now();
  if (process.env.BENCH_LOG) console.log(`click at ${new Date().toISOString()}`);
  await lens.click();
  if (frame) {
    await frame.waitForSelector('#runs-table tbody tr', { timeout: 120_000 });
    return { seconds: (performance.now() - started) / 1000, frame };
  }
  const found = await findInFrames(page, '#runs-table tbody tr', 120_000, 10).catch(async (e: unknown) => {
    await page.screenshot({ path: join(tmpdir(), 'bufferlens-editor-bench.png') });
    throw new Error(`${(e as Error).message} (the editor: ${join(tmpdir(), 'bufferlens-editor-bench.png')})`);
  });
  return { seconds: (performance.now() - started) / 1000, frame: found };
}

function cliSeconds(s: Subject): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, ['dist/cli.js', 'measure', '--url', s.url, '--sql', s.sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bufferlens measure failed: ${r.stderr}`);
  return (performance.now() - started) / 1000;
}

/** Processes that keep every core busy until stopped. */
function spinCores(): ChildProcess[] {
  return Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

async function benchEngine(browser: Browser, vsix: string, make: () => Promise<Subject>): Promise<void> {
  const subject = await make();
  const dir = mkdtempSync(join(tmpdir(), 'bufferlens-editor-bench-'));
  const server = codeServer();
  if (!server.ok) throw new Error(server.reason);
  const workbench = await startWorkbench(server.value, dir, vsix, { 'bufferlens.connections': [subject.profile] }, { 'q.sql': `${subject.sql}\n` });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await openWorkspaceFile(page, workbench.port, workbench.workspace, 'q.sql');
    if (process.env.BENCH_LOG) page.context().on('requestfinished', (r) => console.log(new Date().toISOString(), 'done', r.url().slice(0, 140)));
    const first = await clickToReport(page, undefined);
    let frame = first.frame;
    console.log(`\n${subject.title}: ${subject.sql}`);
    console.log('load'.padEnd(12), 'editor s'.padStart(9), 'CLI s'.padStart(9), 'excess s'.padStart(9), 'ratio'.padStart(7), `  goal: excess ≤ ${GOAL_S} s`);
    const row = (label: string, e: number, c: number) =>
      console.log(
        label.padEnd(12),
        e.toFixed(2).padStart(9),
        c.toFixed(2).padStart(9),
        (e - c).toFixed(2).padStart(9),
        `${(e / c).toFixed(2)}×`.padStart(7),
        `  ${e - c <= GOAL_S ? 'within' : 'over'}`,
      );
    // The first click opens the report panel: the editor's first webview (its service worker) loads then.
    row('first click', first.seconds, cliSeconds(subject));
    for (const load of ['quiet', 'CPU busy'] as const) {
      const spinners = load === 'CPU busy' ? spinCores() : [];
      try {
        const editor: number[] = [];
        const cli: number[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          const click = await clickToReport(page, frame);
          frame = click.frame;
          editor.push(click.seconds);
          cli.push(cliSeconds(subject));
        }
        row(load, median(editor), median(cli));
      } finally {
        for (const p of spinners) p.kill('SIGKILL');
      }
    }
  } finally {
    if (process.env.BENCH_LOG) for (const f of filesNamed(workbench.userData, /BufferLens\.log$/)) console.log(readFileSync(f, 'utf8'));
    await page.close();
    workbench.stop();
    await subject.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bufferlens-editor-bench-vsix-'));
  const browser = await launch(CHROMIUM);
  try {
    const vsix = packageExtension(dir);
    console.log(`median of ${ROUNDS} rounds; editor and command line alternate; every run measured 3 times (the default)`);
    const only = process.env.BENCH_ENGINE;
    if (!only || only === 'postgresql') await benchEngine(browser, vsix, postgresSubject);
    if (!only || only === 'mariadb') await benchEngine(browser, vsix, mariadbSubject);
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
