// The report view rendered from fixture reports in headless Chromium: the numbers a user sees, no console
// errors, no CSP violations, light and dark screenshots kept as test output.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launch } from '../support/browser';
import { need, skipUnless } from '../support/engines';
import { cli } from '../support/cli';
import { webviewHtml } from '../../src/html/webview-html';
import { parseExplainJson } from '../../src/measure/postgres/plan';

const availability = chromiumAvailable();
const OUT = 'test-output/webview';

// Browser-side code is given as strings: the tests compile without DOM types.
async function watch(page: Page): Promise<{ errors: string[]; requests: string[]; violations: () => Promise<string[]> }> {
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  await page.addInitScript({
    content: `window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));`,
  });
  return { errors, requests, violations: () => page.evaluate('window.__violations') as Promise<string[]> };
}

describe('report view in Chromium', skipUnless(availability), () => {
  let browser: Browser;
  before(async () => {
    mkdirSync(OUT, { recursive: true });
    browser = await launch(need(availability));
  });
  after(async () => browser?.close());

  test('the PostgreSQL plan: names as EXPLAIN prints them, conditions, temporary files, and the way to the heaviest node open', async () => {
    const report = JSON.parse(readFileSync('test/fixtures/reports/postgres18-ring.json', 'utf8'));
    report.runs[0].plan = parseExplainJson(JSON.parse(readFileSync('test/fixtures/postgres/parallel-hash-join.json', 'utf8'))).root;
    const json = resolve(OUT, 'parallel-plan.json');
    writeFileSync(json, JSON.stringify(report));
    const file = resolve(OUT, 'parallel-plan.html');
    const r = cli('report', '--html', file, json);
    assert.equal(r.code, 0, r.err);
    const page = await browser.newPage({ viewport: { width: 900, height: 1400 } });
    try {
      const w = await watch(page);
      await page.goto(`file://${file}`);
      const plan = page.locator('.plan');
      await plan.waitFor();
      // Eight levels down, the heaviest node is in view without a click, with its filter and rows removed.
      const heaviest = plan.locator('summary', { hasText: 'Parallel Seq Scan on o' });
      assert.ok(await heaviest.isVisible(), 'the heaviest node is shown open');
      assert.match(
        await heaviest.innerText(),
        /heaviest: \d+ % of the pages[\s\S]*rows 65,000 × 3 loops, estimated 81,676[\s\S]*Filter: \(\(note ~~ 'n%'::text\)/,
      );
      const join = plan.locator('summary', { hasText: 'Parallel Hash Join' }).first();
      assert.match(await join.innerText(), /temporary files: 682 blocks read, 660 written[\s\S]*Hash Cond: \(o\.c = c\.id\)/);
      assert.ok(await plan.locator('summary', { hasText: 'Finalize GroupAggregate' }).isVisible());
      assert.equal(await plan.locator('summary', { hasText: 'Parallel Seq Scan on cust c' }).isVisible(), false, 'off the way: closed');
      // The conditions wrap inside the panel instead of widening it.
      assert.ok(Number(await page.evaluate('document.documentElement.scrollWidth')) <= 900, 'no horizontal scroll');
      assert.deepEqual(w.errors, []);
      assert.deepEqual(await w.violations(), []);
    } finally {
      await page.close();
    }
  });

  test('in a half-width panel nothing widens the page: wide tables scroll inside themselves', async () => {
    const file = resolve(OUT, 'mariadb-narrow.html');
    const r = cli('report', '--html', file, 'test/fixtures/reports/mariadb-seed001.json');
    assert.equal(r.code, 0, r.err);
    const page = await browser.newPage({ viewport: { width: 520, height: 1200 } });
    try {
      await page.goto(`file://${file}`);
      await page.locator('#runs-table').waitFor();
      assert.ok(Number(await page.evaluate('document.documentElement.scrollWidth')) <= 520, 'the page does not scroll sideways');
      const wide = Number(await page.evaluate('Math.max(...[...document.querySelectorAll("table")].map((t) => t.scrollWidth - t.clientWidth))'));
      assert.ok(wide > 0, 'the premise: some table is wider than the panel, and scrolls');
    } finally {
      await page.close();
    }
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the standalone HTML report (${theme}) shows the measured and predicted numbers`, async () => {
      const file = resolve(OUT, `mariadb-${theme}.html`);
      const r = cli('report', '--html', file, '--theme', theme, 'test/fixtures/reports/mariadb-seed001.json');
      assert.equal(r.code, 0, r.err);
      const page = await browser.newPage({ viewport: { width: 1100, height: 1600 } });
      const w = await watch(page);
      await page.goto(`file://${file}`);
      const runs = page.locator('#runs-table');
      await runs.waitFor();
      const row1 = await runs.locator('tbody tr').nth(0).innerText();
      for (const n of ['3,574', '97', '3,520']) assert.ok(row1.includes(n), `run 1 row shows ${n}: ${row1}`);
      assert.match(await runs.locator('tbody tr').nth(1).innerText(), /warm\s+3,574\s+3,574\s+0\s+0\s+0\s+0/);
      assert.match(await page.locator('.hit-ratio').innerText(), /hides 3,520 pages \(55 MiB\) read ahead/);
      assert.ok((await page.locator('canvas').count()) >= 2, 'charts drawn');
      assert.match((await page.locator('.blockmap').first().getAttribute('aria-label')) ?? '', /3,574 of 3,621 pages cached/);
      // The block map has a legend with its scale, and each square a tooltip naming its blocks.
      assert.match(await page.locator('.blockmap-legend').first().innerText(), /Each square is about 18 blocks, block 0 at the top left to block 3,620/);
      assert.match((await page.locator('.blockmap .cell').first().getAttribute('title')) ?? '', /^blocks 0–18: \d+ of 19 cached$/);
      // MariaDB's plan as a tree of its tables with their pages, the heaviest marked in words.
      const table = page.locator('.plan details.plan-node', { hasText: 't: ALL' }).first();
      assert.match(await table.innerText(), /heaviest: 100 % of the pages\s+self 3,574 pages \(3,617 read\)/);
      assert.equal(await page.locator('pre.plan-raw').count(), 0, 'no raw JSON dump');
      await page.screenshot({ path: join(OUT, `report-${theme}.png`), fullPage: true });
      assert.deepEqual(w.errors, []);
      assert.deepEqual(await w.violations(), []);
      assert.deepEqual(
        w.requests.filter((u) => !u.startsWith('file://')),
        [],
        'nothing loaded from the network',
      );
      await page.close();
    });
  }

  test('inside the webview CSP: ready first, data by message, actions posted back', async () => {
    const nonce = 'dGVzdG5vbmNl';
    const server: Server = createServer((req, res) => {
      if (req.url === '/') {
        res.setHeader('content-type', 'text/html');
        res.end(
          webviewHtml({
            nonce,
            cspSource: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            scriptUri: '/media/dist/report.js',
            styleUri: '/media/report.css',
            title: 'BufferLens',
          }),
        );
      } else if (req.url === '/media/dist/report.js' || req.url === '/media/report.css') {
        res.setHeader('content-type', req.url.endsWith('.js') ? 'text/javascript' : 'text/css');
        res.end(readFileSync(`.${req.url}`));
      } else if (req.url === '/favicon.ico') {
        res.statusCode = 204; // a browser asks for it; a VS Code webview does not
        res.end();
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
    const w = await watch(page);
    await page.addInitScript({ content: `window.__posted = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m) });` });
    try {
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await page
        .waitForFunction('window.__posted.length > 0', undefined, { timeout: 10_000 })
        .catch(() => assert.fail(`no message from the view: ${w.errors.join('; ')}`));
      const report = JSON.parse(readFileSync('test/fixtures/reports/postgres18-ring.json', 'utf8'));
      await page.evaluate(`window.postMessage(${JSON.stringify({ type: 'showReport', report })}, '*')`);
      const runs = page.locator('#runs-table');
      await runs.waitFor();
      const f = (n: number) => n.toLocaleString('en-US');
      const [r1, r2] = report.runs;
      assert.equal(r1.cold, true);
      const row = (await runs.locator('tbody tr').nth(0).innerText()).split('\t');
      // PostgreSQL reports no read-ahead: no empty columns, one sentence why.
      assert.deepEqual(row.slice(1, 6), [
        'cold',
        f(r1.measured.logicalReads),
        f(r1.predicted.logicalReads),
        f(r1.measured.physicalReads),
        f(r1.predicted.physicalReads),
      ]);
      assert.equal(row.length, 7, `run, state, two metrics measured and predicted, time: ${row.join(' | ')}`);
      assert.match(await page.locator('section[aria-labelledby="runs-h"]').innerText(), /No read-ahead column: /);
      // Every section is reachable from the keyboard: the contents' links move the focus to its heading,
      // and tables take the focus to scroll.
      const link = page.locator('nav.contents a', { hasText: 'Plan of run 1' });
      await link.focus();
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate('document.activeElement && document.activeElement.id'), 'plan-h');
      assert.ok((await page.locator('nav.contents a').count()) >= 5, 'a link per section');
      assert.equal(await page.locator('#runs-table').getAttribute('tabindex'), '0');
      // The plan tree opens and closes from the keyboard.
      const root = page.locator('.plan > details.plan-node > summary').first();
      assert.equal(await page.locator('.plan > details.plan-node').first().getAttribute('open'), '');
      await root.focus();
      await page.keyboard.press('Enter');
      assert.equal(await page.locator('.plan > details.plan-node').first().getAttribute('open'), null, 'Enter closed it');
      await page.keyboard.press('Space');
      assert.equal(await page.locator('.plan > details.plan-node').first().getAttribute('open'), '', 'Space opened it again');
      assert.ok((await page.locator('.plan summary.heavy .badge').count()) >= 1, 'the heaviest node is marked');
      // A live theme switch redraws the charts in the new theme's colours (VS Code changes the body's class
      // and its --vscode-* variables).
      const pixels = () => page.evaluate(`document.querySelector('section[aria-labelledby="runs-h"] canvas').toDataURL()`);
      const before = await pixels();
      await page.evaluate(
        `document.body.style.setProperty('--vscode-foreground', '#ff00ff'); document.body.style.setProperty('--vscode-panel-border', '#00ff00'); document.body.className = 'vscode-high-contrast'`,
      );
      await page
        .waitForFunction(`document.querySelector('section[aria-labelledby="runs-h"] canvas').toDataURL() !== ${JSON.stringify(before)}`, undefined, {
          timeout: 5_000,
        })
        .catch(() => assert.fail('the chart was not redrawn after the theme switch'));
      assert.notEqual(await pixels(), before);
      // Warnings sit above the numbers, in the editor's words: no command-line flag.
      const order = await page.evaluate(`[...document.querySelectorAll('section')].map((s) => s.getAttribute('aria-labelledby'))`);
      assert.ok(
        (order as string[]).indexOf('warn-h') >= 0 && (order as string[]).indexOf('warn-h') < (order as string[]).indexOf('runs-h'),
        `sections: ${order}`,
      );
      assert.match(await page.locator('section[aria-labelledby="warn-h"]').innerText(), /EXPLAIN ANALYZE times every plan node/);
      assert.doesNotMatch(await page.locator('main').innerText(), /--no-timing|\(--[a-z]/);
      const table = r2.residency.find((x: { relation: string }) => x.relation === 'events');
      assert.ok(table.cachedAfter > table.cachedBefore, 'the ring grew the cached set');
      assert.ok(
        (await page.locator('section[aria-labelledby="res-h"]').innerText()).includes(
          `${f(table.cachedBefore)} → ${f(table.cachedAfter)} (predicted ${f(table.predictedAfter)})`,
        ),
      );
      await page.getByText('Export JSON').click();
      const posted = (await page.evaluate('window.__posted')) as unknown[];
      assert.deepEqual(posted[0], { type: 'ready' });
      assert.deepEqual(posted[posted.length - 1], { type: 'exportReport', format: 'json' });
      await page.screenshot({ path: join(OUT, 'webview-postgres.png'), fullPage: true });
      // Compare: the same statement warm, against the cold report: run 1 physical 4,224 → 0.
      const warm = structuredClone(report);
      warm.runs[0].measured.physicalReads = 0;
      warm.createdAt = new Date(Date.parse(report.createdAt) + 60_000).toISOString();
      await page.evaluate(`window.postMessage(${JSON.stringify({ type: 'showComparison', left: report, right: warm })}, '*')`);
      const cmp = page.locator('section[aria-labelledby="cmp-h"]');
      await cmp.waitFor();
      const p1 = report.runs[0].measured.physicalReads;
      assert.ok((await cmp.innerText()).includes(`run 1 physical\t${f(p1)} → 0 (−${f(p1)}, −100 %)`), await cmp.innerText());
      // What explains the difference comes with it: the cache before run 1, the settings, the plans.
      assert.match(await page.locator('section[aria-labelledby="cmp-res-h"]').innerText(), /cached before run 1/);
      assert.match(await page.locator('section[aria-labelledby="cmp-set-h"]').innerText(), /None: the same settings/);
      assert.match(await page.locator('section[aria-labelledby="cmp-plan-h"]').innerText(), /Gather|Seq Scan|Aggregate/);
      assert.deepEqual(w.errors, []);
      assert.deepEqual(await w.violations(), []);
    } finally {
      await page.close();
      server.close();
    }
  });

  test("MariaDB: a plan's table shows its predicted pages beside the engine's count", async () => {
    const report = JSON.parse(readFileSync('test/fixtures/reports/mariadb-seed001.json', 'utf8'));
    report.runs[0].predictedTables = { t: { pages: 3572, read: 3611 } };
    const file = resolve(OUT, 'predicted-tables.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, JSON.stringify(report));
    const html = resolve(OUT, 'predicted-tables.html');
    const r = cli('report', '--html', html, file);
    assert.equal(r.code, 0, r.err);
    const page = await browser.newPage({ viewport: { width: 1100, height: 1600 } });
    try {
      await page.goto(`file://${html}`);
      const table = page.locator('.plan details.plan-node', { hasText: 't: ALL' }).first();
      await table.waitFor();
      assert.match(
        await table.innerText(),
        /self 3,574 pages \(3,617 read\) · total 3,574 \(3,617 read\) · predicted for this table 3,572 pages \(3,611 read\)/,
      );
    } finally {
      await page.close();
    }
  });

  test('a block map of a hostile range (10^15 blocks) draws at once, and its cells add up', async () => {
    const report = JSON.parse(readFileSync('test/fixtures/reports/mariadb-seed001.json', 'utf8'));
    const last = report.runs[report.runs.length - 1];
    last.residency[0].blocksAfter = [[0, 1e15]];
    const file = resolve(OUT, 'hostile-range.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, JSON.stringify(report));
    const html = resolve(OUT, 'hostile-range.html');
    const r = cli('report', '--html', html, file);
    assert.equal(r.code, 0, r.err);
    const page = await browser.newPage({ viewport: { width: 1100, height: 1600 } });
    const w = await watch(page);
    await page.goto(`file://${html}`, { timeout: 15_000 });
    await page.locator('.blockmap').first().waitFor({ timeout: 15_000 });
    // Every cell is full: the range covers the whole relation.
    const cells = await page.locator('.blockmap').first().locator('span.level-4').count();
    assert.equal(cells, await page.locator('.blockmap').first().locator('span').count());
    assert.deepEqual(w.errors, []);
    await page.close();
  });
});
