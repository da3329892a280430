import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReportStore } from '../../src/store/report-store';
import { reportMarkdown } from '../../src/shared/markdown';
import { parseProfile, profileTarget } from '../../src/db/profile';
import type { Report } from '../../src/shared/report';

const report = JSON.parse(readFileSync('test/fixtures/reports/mariadb-seed001.json', 'utf8')) as Report;

test('reports are stored in a versioned file, newest first, and survive a reload', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bl-store-'));
  try {
    const file = join(dir, 'reports.json');
    const store = new ReportStore(file);
    const a = store.add({ connection: 'lab', summary: 's1', report });
    const b = store.add({ connection: 'lab', summary: 's2', report, file: '/w/q.sql' });
    const again = new ReportStore(file);
    assert.deepEqual(
      again.list().map((r) => r.id),
      [b.id, a.id],
    );
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).version, 1);
    assert.equal(again.remove(a.id), true);
    assert.equal(new ReportStore(file).get(a.id), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the cap prunes the oldest first, by count and by size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bl-store-'));
  try {
    const store = new ReportStore(join(dir, 'r.json'), { maxReports: 3, maxBytes: 1e9 });
    const ids = Array.from({ length: 5 }, (_, i) => store.add({ connection: 'c', summary: `s${i}`, report }).id);
    assert.deepEqual(
      store.list().map((r) => r.id),
      ids.slice(2).reverse(),
    );
    const small = new ReportStore(join(dir, 's.json'), { maxReports: 100, maxBytes: JSON.stringify(report).length * 2.5 });
    for (let i = 0; i < 5; i++) small.add({ connection: 'c', summary: `s${i}`, report });
    assert.equal(small.list().length, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an unreadable store is moved aside and said so, never silently overwritten', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bl-store-'));
  try {
    const file = join(dir, 'r.json');
    writeFileSync(file, '{"version": 99, "reports": []}');
    const store = new ReportStore(file);
    assert.match(store.loadProblem ?? '', /unknown store version 99/);
    assert.equal(store.list().length, 0);
    assert.ok(readdirSync(dir).some((f) => f.startsWith('r.json.unreadable-')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Markdown export carries the numbers and their meaning', () => {
  const md = reportMarkdown(report);
  assert.match(md, /\| 1 \| as found \| 3,574 \| 3,574 \| 97 \| 97 \| 3,520 \| 3,520 \|/);
  assert.match(md, /hides 3,520 pages/);
  assert.match(md, /## What the numbers mean/);
});

test('profiles: checked, never with a password; the password comes from secrets or the environment', () => {
  assert.match(String(parseProfile({ name: 'x', engine: 'postgresql', password: 'p' })), /does not belong in settings/);
  assert.match(String(parseProfile({ name: 'x', engine: 'oracle' })), /engine must be/);
  const p = parseProfile({ name: 'lab', engine: 'mysql', host: 'db', port: 3307, user: 'me' });
  assert.ok(typeof p !== 'string');
  assert.deepEqual(profileTarget(p, 'secret'), { engine: 'mysql', host: 'db', port: 3307, user: 'me', password: 'secret' });
  assert.equal(profileTarget(p, undefined, { MYSQL_PWD: 'env' }).password, 'env');
  assert.equal(profileTarget(p, undefined, {}).password, undefined);
});

test('the newest report of a statement on a connection: what measuring it again starts from', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bl-store-'));
  try {
    const store = new ReportStore(join(dir, 'reports.json'));
    const older = store.add({ connection: 'lab', summary: 'old', report });
    const newer = store.add({ connection: 'lab', summary: 'new', report });
    store.add({ connection: 'other', summary: 'elsewhere', report });
    store.add({ connection: 'lab', summary: 'another statement', report: { ...report, statement: 'SELECT 1' } });
    assert.equal(store.latestOf('lab', `\n  ${report.statement.replace(/\s+/g, '\n')};`)?.id, newer.id);
    assert.notEqual(newer.id, older.id);
    assert.equal(store.latestOf('nowhere', report.statement), undefined);
    assert.equal(store.latestOf('lab', 'SELECT 2'), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
