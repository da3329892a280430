// End to end in a real VS Code (code-server in headless Chromium): install the built .vsix, open a
// workspace with a .sql file and a connection to a harness PostgreSQL, click the CodeLens, read the
// measured numbers in the report panel, and see the statement's page budget breached on its lens and as a
// diagnostic.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Browser, Page } from 'playwright-core';
import { LocalPostgres } from '../../src/local-server/postgres';
import { LocalInnodbServer } from '../../src/local-server/mariadb';
import { createConnection } from 'mysql2/promise';
import { mariadb, need, skipUnless, systemPostgres, type Availability } from '../support/engines';
import { chromiumAvailable, launch } from '../support/browser';
import { codeServer, type CodeServer } from '../support/code-server';
import {
  bufferlensCommand,
  filesNamed,
  findInFrames,
  openWorkspaceFile,
  packageExtension,
  showBufferLensSideBar,
  startWorkbench,
  waitShowing,
  type Workbench,
} from '../support/workbench';

function all<A, B, C>(a: Availability<A>, b: Availability<B>, c: Availability<C>): Availability<[A, B, C]> {
  for (const x of [a, b, c]) if (!x.ok) return x as Availability<never>;
  return { ok: true, value: [(a as { value: A }).value, (b as { value: B }).value, (c as { value: C }).value] };
}

const availability = all(systemPostgres(), chromiumAvailable(), codeServer());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Answers the prompt whose text holds `title`: types `text` (none: the value offered) and accepts. */
async function answerPrompt(page: Page, title: string, text: string | null): Promise<void> {
  const box = page.locator('.quick-input-widget', { hasText: title });
  await box.waitFor({ timeout: 15_000 });
  if (text !== null) {
    const input = box.locator('input');
    // Focused only if it is not: focusing again could drop the selection of an offered value typing replaces.
    if (!(await input.evaluate((e) => e === e.ownerDocument.activeElement))) await input.focus();
    await page.keyboard.type(text);
    // An Enter before the typing lands would accept what the box held before.
    for (const deadline = Date.now() + 15_000; (await input.inputValue()) !== text; await sleep(100)) {
      if (Date.now() > deadline) assert.fail(`the prompt "${title}" holds "${await input.inputValue()}", not "${text}"`);
    }
  }
  await page.keyboard.press('Enter');
}

// Timeouts sized for a loaded machine (two CPU-bound processes beside the suite): each test has its own, so a
// stuck one fails alone; the suite's covers its start-up and every test at that bound.
const TEST_TIMEOUT = 180_000;

describe('BufferLens in a real VS Code', { ...skipUnless(availability), timeout: 20 * 60_000 }, () => {
  let pg: LocalPostgres;
  let workbench: Workbench;
  let browser: Browser;
  let dir: string;
  let port: number;
  let tableBlocks: number;
  let pgBinaries: Parameters<typeof LocalPostgres.start>[0]['binaries'];
  let userData: string;

  before(async () => {
    const [pgBin, chromium, server] = need(availability) as [Parameters<typeof LocalPostgres.start>[0]['binaries'], string, CodeServer];
    pgBinaries = pgBin;
    dir = mkdtempSync(join(tmpdir(), 'bufferlens-e2e-'));
    pg = await LocalPostgres.start({ binaries: pgBin, settings: { shared_buffers: '16MB', shared_preload_libraries: 'pg_stat_statements' } });
    const c = new Client({ connectionString: pg.url() });
    await c.connect();
    await c.query('CREATE EXTENSION pg_buffercache');
    // What the server's statistics count, for New Workload from Server Statistics.
    await c.query('CREATE EXTENSION pg_stat_statements');
    await c.query('CREATE TABLE accounts (id int PRIMARY KEY, v int NOT NULL)');
    await c.query('INSERT INTO accounts SELECT g, 0 FROM generate_series(1, 50000) g');
    for (let i = 0; i < 40; i++) await c.query('SELECT v FROM accounts WHERE id = $1', [1 + ((i * 7919) % 50000)]);
    for (let i = 0; i < 10; i++) await c.query('UPDATE accounts SET v = v + $1 WHERE id = $2', [1, 1 + ((i * 104729) % 50000)]);
    await c.query(`CREATE TABLE orders AS SELECT g AS id, md5(g::text) AS note FROM generate_series(1, 20000) g`);
    await c.query('VACUUM ANALYZE orders');
    tableBlocks = (await c.query(`SELECT (pg_relation_size('orders') / 8192)::int AS n`)).rows[0].n;
    await c.end();

    const vsix = packageExtension(dir);
    workbench = await startWorkbench(
      server,
      dir,
      vsix,
      { 'bufferlens.connections': [{ name: 'harness', engine: 'postgresql', host: '127.0.0.1', port: pg.port, user: 'postgres', database: 'postgres' }] },
      // A page budget the scan cannot meet: its breach shows on the lens and as a diagnostic.
      { 'q.sql': '-- orders\n-- bufferlens: budget logical <= 10\nSELECT count(*), max(note) FROM orders;\n' },
    );
    port = workbench.port;
    userData = workbench.userData;
    browser = await launch(chromium);
  });

  after(async () => {
    await browser?.close();
    workbench?.stop();
    await pg?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('click the CodeLens, see the measured numbers', { timeout: TEST_TIMEOUT }, async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openWorkspaceFile(page, port, join(dir, 'workspace'), 'q.sql');
    const lens = page.locator('.codelens-decoration a', { hasText: 'Measure buffer I/O' });
    await lens.waitFor({ timeout: 90_000 });
    await lens.click();
    const frame = await findInFrames(page, '#runs-table', 90_000);
    const row = await frame.locator('#runs-table tbody tr').nth(0).innerText();
    const cells = row.split('\t');
    assert.equal(cells[0], 'run 1');
    assert.equal(cells[2], tableBlocks.toLocaleString('en-US'), `logical reads of run 1 are the table's ${tableBlocks} blocks: ${row}`);
    assert.equal(cells[3], tableBlocks.toLocaleString('en-US'), 'and the prediction agrees');
    mkdirSync('test-output', { recursive: true });
    await page.screenshot({ path: join('test-output', 'e2e-vscode.png') });
    // The second lens shows the last result, and the budget's breach, which is also in the Problems view.
    await page.locator('.codelens-decoration a', { hasText: /\d pages, \d/ }).waitFor({ timeout: 30_000 });
    const budgetLens = page.locator('.codelens-decoration a', { hasText: 'over budget' });
    await budgetLens.waitFor({ timeout: 30_000 });
    assert.match(await budgetLens.innerText(), new RegExp(`over budget: logical ${tableBlocks.toLocaleString('en-US')}, budget logical <= 10`));
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 30_000 });
    // The report is in the history side view, and opens again from there.
    await showBufferLensSideBar(page);
    const item = page.locator('.monaco-list-row', { hasText: 'SELECT count(*), max(note) FROM orders' });
    await item.first().waitFor({ timeout: 30_000 });
    assert.match(await item.first().innerText(), /q\.sql/);
    // The Connections view beside it lists the profile, as the connection of the file in front.
    const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Connections' }) });
    const connection = pane.locator('.monaco-list-row', { hasText: 'harness' });
    await connection.first().waitFor({ timeout: 30_000 });
    assert.match(await connection.first().innerText(), /this file · default · postgresql/);
    // Closed and reopened, the file's lens shows the last result again (from the history).
    await page.keyboard.press('F1');
    await page.keyboard.type('View: Close All Editors');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Close All Editors' }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    await page.locator('.codelens-decoration a', { hasText: /\d pages, \d/ }).waitFor({ state: 'detached', timeout: 30_000 });
    await page.locator('.activitybar a[aria-label^="Explorer"], .activitybar .action-item a[aria-label*="Explorer"]').first().click();
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'q.sql' }).click();
    await page.locator('.codelens-decoration a', { hasText: /\d pages, \d/ }).waitFor({ timeout: 60_000 });
    await page.close();
  });
  test('the report panel opens as measuring starts, and closes again when the statement fails', { timeout: TEST_TIMEOUT }, async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      writeFileSync(join(dir, 'workspace', 'early.sql'), 'SELECT pg_sleep(3), count(*) FROM orders;\nSELECT nosuch FROM orders;\n');
      await openWorkspaceFile(page, port, join(dir, 'workspace'), 'early.sql');
      const lenses = page.locator('.codelens-decoration a', { hasText: 'Measure buffer I/O' });
      await lenses.nth(1).waitFor({ timeout: 90_000 });
      await lenses.nth(0).click();
      // Three runs of three seconds each (time for a first webview to load on a busy machine): the panel says what it
      // is waiting for, then shows the report in place.
      const frame = await findInFrames(page, 'p.measuring', 30_000);
      assert.match(await frame.locator('p.measuring').innerText(), /^Measuring on harness: SELECT pg_sleep\(3\), count\(\*\) FROM orders/);
      await frame.locator('#runs-table').waitFor({ timeout: 90_000 });
      await lenses.nth(1).click();
      await page.locator('.notifications-toasts', { hasText: 'column "nosuch" does not exist' }).first().waitFor({ timeout: 60_000 });
      // The panel opened for the failed statement is gone; the toast is what is left to read.
      for (const deadline = Date.now() + 15_000; (await page.locator('.tab', { hasText: 'nosuch' }).count()) > 0; await sleep(200)) {
        if (Date.now() > deadline) assert.fail('the failed statement left its report tab open');
      }
    } finally {
      await page.close();
    }
  });
  test(
    'a newcomer asks "would 4× the pool help?": Try the Demo Workload answers in the editor, no connection to set up',
    { timeout: TEST_TIMEOUT },
    async () => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await openWorkspaceFile(page, port, join(dir, 'workspace'), 'q.sql');
      await page.locator('.codelens-decoration a').first().waitFor({ timeout: 90_000 });
      const started = Date.now();
      await bufferlensCommand(page, 'Try the Demo Workload');
      const frame = await findInFrames(page, 'ul.answers', 90_000);
      const answers = await frame.locator('ul.answers').innerText();
      assert.match(answers, /4× the pool now \(16 MiB → 64 MiB\): \d+ % fewer pages read/);
      assert.match(answers, /serves 99 % of this mix's page requests from the pool/);
      assert.ok(Date.now() - started < 60_000, `answered in ${Math.round((Date.now() - started) / 1000)} s`);
      // The workload file is open beside the report, as a pgbench script.
      await page.locator('.tab', { hasText: 'demo-workload.sql' }).first().waitFor({ timeout: 15_000 });
      await page.screenshot({ path: join('test-output', 'e2e-workload.png') });
      await bufferlensCommand(page, 'Stop Demo Database');
      await page.locator('.notifications-toasts', { hasText: 'the demo database stopped' }).first().waitFor({ timeout: 30_000 });
      await page.close();
    },
  );
  test('two measurements of a statement compared from the palette: the comparison opens beside the file', { timeout: TEST_TIMEOUT }, async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await openWorkspaceFile(page, port, join(dir, 'workspace'), 'q.sql');
      // A second measurement of the statement the first test measured: the history holds two reports of it.
      const lens = page.locator('.codelens-decoration a', { hasText: 'Measure buffer I/O' });
      await lens.waitFor({ timeout: 90_000 });
      await lens.click();
      await findInFrames(page, '#runs-table', 90_000);
      // The new report's webview may take focus a moment after it shows, which closes a quick pick opened
      // meanwhile: pick again until two reports stay selected.
      for (let attempt = 1; ; attempt++) {
        try {
          await page.keyboard.press('Escape');
          await bufferlensCommand(page, 'Compare Reports');
          const rows = page.locator('.quick-input-list .monaco-list-row', { hasText: 'SELECT count(*), max(note) FROM orders' });
          await rows.nth(1).waitFor({ timeout: 15_000 });
          for (const i of [0, 1])
            await rows.nth(i).locator('.quick-input-list-checkbox, input[type=checkbox], .monaco-checkbox').first().click({ timeout: 5_000 });
          assert.match(await page.locator('.quick-input-widget').innerText({ timeout: 5_000 }), /2 Selected/);
          break;
        } catch (e) {
          await page.screenshot({ path: join('test-output', `e2e-compare-attempt-${attempt}.png`) });
          if (attempt === 3) throw e;
          // Should the history hold one report of it only, measure it once more: the next attempt waits for
          // the picker to list both.
          await page.keyboard.press('Escape');
          await lens.click();
          await findInFrames(page, '#runs-table', 90_000);
        }
      }
      await page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).click();
      const frame = await (async () => {
        const deadline = Date.now() + 60_000;
        for (;;) {
          for (const f of page.frames())
            if (
              await f
                .locator('h1', { hasText: 'Compare reports' })
                .count()
                .catch(() => 0)
            )
              return f;
          if (Date.now() > deadline) throw new Error('no comparison view');
          await sleep(300);
        }
      })();
      assert.match(await frame.locator('main').innerText(), /Same statement\.[\s\S]*Pages per run, before → after/);
    } finally {
      await page.close();
    }
  });
  test('New Workload from Server Statistics: pick the busiest statements, get a workload file, predict its curve', { timeout: TEST_TIMEOUT }, async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await openWorkspaceFile(page, port, join(dir, 'workspace'), 'q.sql');
      await page.locator('.codelens-decoration a').first().waitFor({ timeout: 90_000 });
      await bufferlensCommand(page, 'New Workload from Server Statistics');
      // The picker lists the statements by calls, the busiest chosen.
      const picker = page.locator('.quick-input-widget', { hasText: 'the statements to keep' });
      await picker.waitFor({ timeout: 30_000 });
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'FROM accounts WHERE id' }).first().waitFor({ timeout: 15_000 });
      assert.match(await picker.innerText(), /40 calls/);
      await page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).click();
      // A new document holds the workload, and the curve is one button away.
      await page.locator('.view-lines', { hasText: 'A BufferLens workload from pg_stat_statements' }).first().waitFor({ timeout: 30_000 });
      const editorText = await page.locator('.view-lines').first().innerText();
      assert.match(editorText, /weight\s40/);
      assert.doesNotMatch(editorText, /SELECT\s\$1/, 'a monitoring call is no statement of the workload');
      await page.locator('.notifications-toasts .monaco-button', { hasText: 'Predict Pool-Size Curve' }).first().click({ timeout: 30_000 });
      const frame = await findInFrames(page, 'ul.answers', 90_000);
      // Whatever the answer (this small table fits the pool now), it says what 4× the pool would do.
      assert.match(await frame.locator('ul.answers').innerText(), /4× /);
    } finally {
      await page.close();
    }
  });
  test(
    'themes switched live keep the charts readable (light, dark, high contrast), the plan opens by keyboard, and the history exports',
    { timeout: TEST_TIMEOUT },
    async () => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      // The picker as a user opens it (Preferences: Color Theme, not the marketplace's), the theme clicked.
      const colorTheme = async (theme: string) => {
        await page.keyboard.press('F1');
        await page.locator('.quick-input-widget input').waitFor({ timeout: 15_000 });
        await page.keyboard.type('Preferences: Color Theme');
        await page.locator('.quick-input-list .monaco-list-row[aria-label^="Preferences: Color Theme"]').first().click({ timeout: 15_000 });
        await page.keyboard.type(theme);
        await page.locator(`.quick-input-list .monaco-list-row[aria-label^="${theme}"]`).first().click({ timeout: 15_000 });
      };
      // WCAG's contrast ratio of two colours (#rrggbb or rgb()).
      const contrast = (a: string, b: string) => {
        const rgb = (c: string) =>
          c.startsWith('#') ? [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)) : (c.match(/\d+/g) ?? []).slice(0, 3).map(Number);
        const lum = (c: string) => {
          const [r, g, b] = rgb(c)
            .map((v) => v / 255)
            .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
        return (x + 0.05) / (y + 0.05);
      };
      try {
        await openWorkspaceFile(page, port, join(dir, 'workspace'), 'q.sql');
        const lens = page.locator('.codelens-decoration a', { hasText: 'Measure buffer I/O' });
        await lens.waitFor({ timeout: 90_000 });
        await lens.click();
        const frame = await findInFrames(page, '#runs-table', 90_000);
        for (const [theme, kind] of [
          ['Light Modern', 'light'],
          ['Dark Modern', 'dark'],
          ['Dark High Contrast', 'high-contrast'],
        ] as const) {
          await page.locator('.monaco-editor .view-lines').first().click();
          await colorTheme(theme);
          const deadline = Date.now() + 15_000;
          let seen: { body: string; fg: string; bg: string; labels: string[] } | undefined;
          for (;;) {
            // A string: this file is typed for Node, the function runs in the webview.
            seen = (await frame.evaluate(`(() => {
            const css = getComputedStyle(document.body);
            return { body: document.body.className, fg: css.getPropertyValue('--vscode-foreground').trim(), bg: css.getPropertyValue('--vscode-editor-background').trim(), labels: [...document.querySelectorAll('canvas')].map((c) => c.dataset.labelColor ?? '') };
          })()`)) as { body: string; fg: string; bg: string; labels: string[] };
            if (
              seen.body.includes(kind === 'high-contrast' ? 'vscode-high-contrast' : `vscode-${kind}`) &&
              seen.labels.length > 0 &&
              seen.labels.every((l) => l === seen!.fg)
            )
              break;
            if (Date.now() > deadline) assert.fail(`${theme}: the charts were not redrawn in its colours: ${JSON.stringify(seen)}`);
            await sleep(300);
          }
          // Labels in the theme's foreground, readable on its background.
          assert.ok(contrast(seen.fg, seen.bg) >= 4.5, `${theme}: labels ${seen.fg} on ${seen.bg}`);
          await page.screenshot({ path: join('test-output', `e2e-theme-${kind}.png`) });
        }
        // The plan tree closes and opens again with the keyboard alone.
        const summary = frame.locator('details.plan-node > summary').first();
        await summary.focus();
        const open = () =>
          frame
            .locator('details.plan-node')
            .first()
            .evaluate((d) => (d as unknown as { open: boolean }).open);
        const before = await open();
        await page.keyboard.press('Enter');
        assert.equal(await open(), !before, 'Enter toggles the node');
        await page.keyboard.press('Space');
        assert.equal(await open(), before, 'Space toggles it back');
        // Export from the history view: the inline action, a format, the suggested name beside the file.
        await showBufferLensSideBar(page);
        const item = page.locator('.monaco-list-row', { hasText: 'SELECT count(*), max(note) FROM orders' }).first();
        await item.waitFor({ timeout: 30_000 });
        await item.hover();
        await item.locator('.action-label[aria-label*="Export Report"]').click({ timeout: 15_000 });
        await page.locator('.quick-input-widget', { hasText: 'Export as' }).waitFor({ timeout: 15_000 });
        await page.keyboard.type('markdown');
        await page.keyboard.press('Enter');
        // The save dialog offers a name from the statement and the day; accepting it writes the file.
        let offered = '';
        for (const deadline = Date.now() + 15_000; !/\.md$/.test(offered); await sleep(200)) {
          if (Date.now() > deadline) assert.fail(`the save dialog offered ${JSON.stringify(offered)}`);
          offered = await page.locator('.quick-input-widget input').inputValue();
        }
        assert.match(offered, /select-count-max-note-from-orders.*\.md$/i);
        await page.keyboard.press('Enter');
        await page.locator('.notifications-toasts', { hasText: 'exported to' }).first().waitFor({ timeout: 30_000 });
        const written = offered.replace(/^file:\/\//, '');
        assert.ok(existsSync(written), `${written} was written`);
        assert.match(readFileSync(written, 'utf8'), /SELECT count\(\*\), max\(note\) FROM orders/);
        await colorTheme('Dark Modern');
      } finally {
        await page.close();
      }
    },
  );
  test(
    'a MariaDB connection added for a second file: that file follows MySQL rules and measures on InnoDB, the PostgreSQL file keeps its own',
    { ...skipUnless(mariadb()), timeout: TEST_TIMEOUT },
    async () => {
      const maria = await LocalInnodbServer.start({ binaries: need(mariadb()), settings: { 'innodb-buffer-pool-size': '16M' } });
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      try {
        const m = await createConnection({ host: '127.0.0.1', port: maria.port, user: 'root' });
        await m.query('CREATE DATABASE shop');
        await m.query('USE shop');
        await m.query('CREATE TABLE items (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB');
        await m.query('INSERT INTO items SELECT seq, seq FROM seq_1_to_20000');
        await m.end();
        const ws = join(dir, 'workspace');
        // Each file splits only under its own dialect's rules: a DELIMITER block, a $$ body.
        writeFileSync(
          join(ws, 'm.sql'),
          'DELIMITER //\nCREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END //\nDELIMITER ;\nSELECT v FROM items WHERE id BETWEEN 100 AND 200;\n',
        );
        writeFileSync(join(ws, 'p.sql'), 'CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; SELECT 2; $$ LANGUAGE sql;\nSELECT count(*) FROM orders;\n');
        await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
        await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
        await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'q.sql' }).waitFor({ timeout: 60_000 });
        const lenses = page.locator('.monaco-editor .codelens-decoration');
        // Go to File (the quick open), as a keyboard user opens a file. Tried again where the tab is not active
        // after it: on a loaded machine the workbench restoring an earlier test's untitled editor took focus
        // just after the file opened.
        const openOnce = async (file: string) => {
          const tab = page.locator('.tab', { hasText: file });
          if (await tab.count()) await tab.first().click();
          else {
            await page.keyboard.press('Control+P');
            await page.locator('.quick-input-widget input').waitFor({ timeout: 15_000 });
            await page.keyboard.type(file);
            await page.locator('.quick-input-list .monaco-list-row', { hasText: file }).first().waitFor({ timeout: 30_000 });
            await page.keyboard.press('Enter');
          }
          await page.locator('.tab.active', { hasText: file }).waitFor({ timeout: 15_000 });
        };
        const open = async (file: string) => {
          for (let attempt = 1; ; attempt++) {
            try {
              return await openOnce(file);
            } catch (e) {
              await page.screenshot({ path: join('test-output', `e2e-open-${file}-${attempt}.png`) });
              if (attempt === 3) throw e;
              await page.keyboard.press('Escape');
            }
          }
        };
        const lensCount = async (n: number, what: string) => {
          for (const deadline = Date.now() + 30_000; ; await sleep(300)) {
            const c = await lenses.count();
            if (c === n) return;
            if (Date.now() > deadline) assert.fail(`${what}: ${c} lens lines, ${n} expected: ${(await lenses.allInnerTexts()).join(' | ')}`);
          }
        };
        await open('p.sql');
        await lensCount(2, 'p.sql on PostgreSQL: the function with its $$ body, then the SELECT');
        await open('m.sql');
        await page.locator('.codelens-decoration a').first().waitFor({ timeout: 60_000 });
        const answer = (title: string, text: string | null) => answerPrompt(page, title, text);
        await bufferlensCommand(page, 'Add Connection');
        await answer('engine', 'MySQL or MariaDB');
        await answer('a name', 'maria');
        await answer('host', null);
        await answer('port', String(maria.port));
        await answer('user@database', 'root@shop');
        await answer('password', null);
        // The new connection is m.sql's: its statements split by MySQL's rules, the procedure refused, the SELECT measurable.
        await page.locator('.statusbar-item', { hasText: 'maria' }).first().waitFor({ timeout: 30_000 });
        await lensCount(2, 'm.sql on MariaDB: the procedure, then the SELECT');
        // Split by MySQL's rules (PostgreSQL's would cut the procedure at its first semicolon): the procedure
        // refused with the reason, the SELECT after DELIMITER ; measurable.
        for (const deadline = Date.now() + 30_000; ; await sleep(300)) {
          const texts = await lenses.allInnerTexts();
          if (texts.length === 2 && /^Not measured: CREATE PROCEDURE/.test(texts[0]) && /Measure buffer I\/O/.test(texts[1])) break;
          if (Date.now() > deadline) assert.fail(`m.sql's lenses: ${texts.join(' | ')}`);
        }
        await lenses.nth(1).locator('a', { hasText: 'Measure buffer I/O' }).click();
        const frame = await findInFrames(page, '#runs-table', 90_000);
        assert.match(await frame.locator('main').innerText(), /SELECT v FROM items WHERE id BETWEEN 100 AND 200/);
        assert.match(await frame.locator('#runs-table thead').innerText(), /read-ahead/i, 'an InnoDB report counts read-ahead');
        // The PostgreSQL file kept its connection and its rules.
        await open('p.sql');
        await page.locator('.statusbar-item', { hasText: 'harness' }).first().waitFor({ timeout: 30_000 });
        await lensCount(2, 'p.sql after the MariaDB connection was added');
        // The report in front names its own connection, in its tab and in the status bar.
        await page.locator('.tab', { hasText: '· maria' }).first().click();
        await page.locator('.statusbar-item', { hasText: 'maria' }).first().waitFor({ timeout: 30_000 });
        await page.screenshot({ path: join('test-output', 'e2e-two-dialects.png') });
      } finally {
        await page.close();
        await maria.stop();
      }
    },
  );
  test(
    'Add Connection from the palette with a wrong password: nothing is saved until it connects, and Re-enter Password fixes it',
    { timeout: TEST_TIMEOUT },
    async () => {
      // A server that checks passwords (the harness one trusts loopback).
      const secure = await LocalPostgres.start({ binaries: pgBinaries, hostAuth: 'scram-sha-256' });
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      try {
        const c = new Client({ connectionString: secure.socketUrl() });
        await c.connect();
        await c.query("ALTER USER postgres PASSWORD 'right-one'");
        await c.end();
        await openWorkspaceFile(page, port, join(dir, 'workspace'), 'q.sql');
        await page.locator('.codelens-decoration a').first().waitFor({ timeout: 90_000 });
        const answer = (title: string, text: string | null) => answerPrompt(page, title, text);
        await bufferlensCommand(page, 'Add Connection');
        await answer('engine', 'PostgreSQL');
        await answer('a name', 'secure');
        await answer('host', null);
        await answer('port', String(secure.port));
        await answer('user@database', null);
        await answer('password', 'wrong-one');
        // It does not connect: a modal says why and offers the fix.
        const dialog = page.locator('.monaco-dialog-box', { hasText: 'secure does not connect' });
        await dialog.waitFor({ timeout: 30_000 });
        assert.match(await dialog.innerText(), /password authentication failed/);
        await dialog.locator('.monaco-button', { hasText: 'Re-enter Password' }).click();
        await answer('Password for secure', 'right-one');
        // Saved once it connects, and listed in the Connections view; Test Connection runs on it.
        await showBufferLensSideBar(page);
        const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Connections' }) });
        await waitShowing(page, pane.locator('.monaco-list-row', { hasText: 'secure' }).first(), 'the secure row of the Connections view', 60_000);
        await page
          .locator('.notifications-toasts', { hasText: /secure/ })
          .first()
          .waitFor({ timeout: 30_000 });
        assert.doesNotMatch(await page.locator('.notifications-toasts').innerText(), /does not connect/);
      } finally {
        await page.close();
        await secure.stop();
      }
    },
  );
  test(
    'Add Connection from a pasted URL with a wrong database: Edit a Field changes it alone, the password stays out of settings, the log keeps it all',
    { timeout: TEST_TIMEOUT },
    async () => {
      const secure = await LocalPostgres.start({ binaries: pgBinaries, hostAuth: 'scram-sha-256' });
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      try {
        const c = new Client({ connectionString: secure.socketUrl() });
        await c.connect();
        await c.query("ALTER USER postgres PASSWORD 'pasted-secret'");
        await c.end();
        await openWorkspaceFile(page, port, join(dir, 'workspace'), 'q.sql');
        await page.locator('.codelens-decoration a').first().waitFor({ timeout: 90_000 });
        const answer = (title: string, text: string | null) => answerPrompt(page, title, text);
        await bufferlensCommand(page, 'Add Connection');
        // The connection flow's pictures (docs/images/connection-*.png are copied from these): never the URL box, which holds a password.
        const picture = (what: { screenshot(o: { path: string }): Promise<unknown> }, name: string) =>
          what.screenshot({ path: join('test-output', `connection-${name}.png`) });
        await page.locator('.quick-input-widget', { hasText: 'engine, or a URL' }).waitFor({ timeout: 15_000 });
        await picture(page.locator('.quick-input-widget'), '1-engine-or-url');
        await answer('engine, or a URL', 'Paste');
        // Pasted, as a user would (one input event), and accepted once the box no longer shows a validation error.
        // By the input box's own title: the pick before it lists "Paste a Connection URL…", which a looser
        // match finds while it is still up, and text typed there is gone when the box replaces it.
        const urlBox = page.locator('.quick-input-widget', { hasText: 'Add Connection: connection URL' });
        await urlBox.waitFor({ timeout: 15_000 });
        // The box shows its prompt before any validation, so the wait is for the pasted value itself:
        // on a loaded machine an Enter before the paste lands accepts an empty box, which is refused.
        const url = `postgres://postgres:pasted-secret@127.0.0.1:${secure.port}/nosuchdb`;
        const urlInput = urlBox.locator('input');
        await urlInput.focus();
        await page.keyboard.insertText(url);
        for (const deadline = Date.now() + 15_000; (await urlInput.inputValue()) !== url; await sleep(100)) {
          if (Date.now() > deadline) assert.fail(`the URL box holds "${await urlInput.inputValue()}"`);
        }
        await page.keyboard.press('Enter');
        await answer('a name', 'pasted');
        const dialog = page.locator('.monaco-dialog-box', { hasText: 'pasted does not connect' });
        await dialog.waitFor({ timeout: 30_000 });
        assert.match(await dialog.innerText(), /database "nosuchdb" does not exist/);
        await picture(dialog, '2-does-not-connect');
        await dialog.locator('.monaco-button', { hasText: 'Edit a Field' }).click();
        // The field the failure points at is offered first, with its value; only it is asked again.
        const first = page.locator('.quick-input-widget', { hasText: 'Edit which field of pasted?' }).locator('.monaco-list-row').first();
        await first.waitFor({ timeout: 15_000 });
        assert.match(await first.innerText(), /Database\s*nosuchdb/);
        await picture(page.locator('.quick-input-widget', { hasText: 'Edit which field of pasted?' }), '3-edit-a-field');
        await page.keyboard.press('Enter');
        await answer('pasted: database', 'postgres');
        await showBufferLensSideBar(page);
        const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Connections' }) });
        await waitShowing(page, pane.locator('.monaco-list-row', { hasText: 'pasted' }).first(), 'the pasted row of the Connections view', 60_000);
        await picture(pane, '4-connections-view');
        // Settings hold the profile with the corrected database, never the URL's password.
        const settings = readFileSync(join(userData, 'User', 'settings.json'), 'utf8');
        assert.match(settings, /"name": "pasted"[\s\S]*"database": "postgres"/);
        assert.doesNotMatch(settings, /pasted-secret/);
        // The output channel keeps what the toasts said: the failure and the connection added, no password.
        let log = '';
        for (const deadline = Date.now() + 15_000; !/connection pasted added/.test(log); await sleep(300)) {
          if (Date.now() > deadline) assert.fail(`the BufferLens log: ${log}`);
          log = filesNamed(join(userData, 'logs'), /BufferLens\.log$/)
            .map((f) => readFileSync(f, 'utf8'))
            .join('\n');
        }
        assert.match(log, /pasted does not connect: database "nosuchdb" does not exist/);
        assert.match(log, /measured on harness .*SELECT count\(\*\), max\(note\) FROM orders/);
        assert.doesNotMatch(log, /pasted-secret/);
        // The log is the editor's too: it names settings and buttons, never a command-line flag.
        assert.doesNotMatch(log, /\(--[a-z]|--no-timing/);
      } finally {
        await page.close();
        await secure.stop();
      }
    },
  );
});
