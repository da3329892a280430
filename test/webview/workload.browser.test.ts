// The Workload report rendered in headless Chromium from a workload run's JSON: the answer a newcomer
// reads first, the curve as a chart and a table with the pool now marked, the measured point beside the
// prediction, and the statements; no console errors and no CSP violations, in light and dark.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { chromiumAvailable, launch } from '../support/browser';
import { need, skipUnless } from '../support/engines';
import { cli } from '../support/cli';
import type { WorkloadReport } from '../../src/shared/workload-report';
import { addThroughput } from '../../src/workload/workload-report';
import { parseTarget, recommend } from '../../src/workload/target';

const availability = chromiumAvailable();
const OUT = 'test-output/webview';
const FIXTURE = 'test/fixtures/workload/select-only-run.json';

describe('workload report in Chromium', skipUnless(availability), () => {
  let browser: Browser;
  before(async () => {
    mkdirSync(OUT, { recursive: true });
    browser = await launch(need(availability));
  });
  after(async () => browser?.close());

  for (const theme of ['light', 'dark'] as const) {
    test(`the answer, the curve with the pool now, the measured point and the statements (${theme})`, async () => {
      const file = resolve(OUT, `workload-${theme}.html`);
      const r = cli('report', '--html', file, '--theme', theme, FIXTURE);
      assert.equal(r.code, 0, r.err);
      const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`file://${file}`);
      const answers = page.locator('ul.answers li');
      await answers.first().waitFor();
      assert.match(await answers.first().innerText(), /^≈ \d+(\.\d)? MiB serves 99 % of this mix's page requests from the pool\.$/);
      assert.match(await page.locator('ul.answers').innerText(), /4× the pool now \(16 MiB → 64 MiB\): \d+ % fewer pages read/);
      const rows = page.locator('table', { hasText: 'hit ratio' }).first().locator('tbody tr');
      assert.ok((await rows.count()) >= 6);
      assert.equal(await page.locator('tbody tr', { hasText: '16 MiB (now)' }).count(), 1);
      assert.match(
        await page.locator('section', { hasText: 'Measured on the server' }).innerText(),
        /Measured at 16 MiB: hit ratio \d+\.\d %[\s\S]*Predicted for the same transactions: hit ratio \d+\.\d %/,
      );
      assert.match(
        await page.locator('section', { hasText: 'Statements at the pool now' }).innerText(),
        /SELECT abalance FROM pgbench_accounts WHERE aid = :aid/,
      );
      assert.equal(await page.locator('canvas').count(), 1);
      // The pool now is a point of its own with its value, named, not a marker on the line.
      assert.match((await page.locator('canvas').getAttribute('aria-label')) ?? '', /the pool now \(16 MiB\) at \d+\.\d %, with the measured point$/);
      // Keyboard: the contents' links reach each section heading.
      await page.locator('nav.contents a', { hasText: 'Pool-size curve' }).focus();
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate('document.activeElement && document.activeElement.id'), 'curve-h');
      await page.screenshot({ path: resolve(OUT, `workload-${theme}.png`), fullPage: true });
      assert.deepEqual(errors, []);
      await page.close();
    });
  }

  test('after a run that told a page read’s cost: transactions per second and latency per size, plotted, and the target answered first', async () => {
    const report = JSON.parse(readFileSync(FIXTURE, 'utf8')) as WorkloadReport;
    const m = report.measured!;
    m.latency = { meanMs: (m.sessions * 1000) / m.transactionsPerSecond, p95Ms: (2 * m.sessions * 1000) / m.transactionsPerSecond };
    m.costs = { perReadMs: 0.3, perReadMsRange: [0.25, 0.35], noReadMs: m.latency.meanMs / 2, from: 'the test' };
    addThroughput(report);
    report.target = recommend(report, parseTarget('hit-ratio=99%'));
    const json = resolve(OUT, 'workload-throughput.json');
    writeFileSync(json, JSON.stringify(report));
    const file = resolve(OUT, 'workload-throughput.html');
    const r = cli('report', '--html', file, json);
    assert.equal(r.code, 0, r.err);
    const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
    const errors: string[] = [];
    page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`file://${file}`);
    const answers = page.locator('ul.answers li');
    await answers.first().waitFor();
    assert.match(
      await answers.first().innerText(),
      /^Target hit ratio ≥ 99 %: \d+(\.\d)? MiB \(predicted [^,]+ %, \d\.\d\d points above the target; \d+(\.\d)? MiB gives/,
    );
    const curve = page.locator('table', { hasText: 'hit ratio' }).first();
    assert.match(await curve.locator('thead').innerText(), /transactions per second \(band\)\s+latency mean \/ p95/);
    assert.match(await curve.locator('tbody tr', { hasText: '(now)' }).innerText(), /\d[\d,]* \(\d[\d,]*–\d[\d,]*\)|\d[\d,]*\s+\d+\.\d \/ \d+\.\d ms/);
    assert.match(await page.locator('section', { hasText: 'Measured on the server' }).innerText(), /A page read costs 0\.300 ms \(0\.250–0\.350\)/);
    assert.match(
      (await page.locator('canvas').getAttribute('aria-label')) ?? '',
      /and predicted transactions per second, the smallest pool for the target circled$/,
    );
    await page.screenshot({ path: resolve(OUT, 'workload-throughput.png'), fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  });
});
