// package.json is the extension's public face: its commands must exist in code and the reverse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
import { COMMAND } from '../src/shared/command-ids';

const extensionSource = readFileSync('src/extension.ts', 'utf8');
// The COMMAND table lives in shared/ (no vscode), so this test imports it.
const table: Record<string, string> = COMMAND;

test('every contributed command is in the COMMAND table, and the reverse', () => {
  const contributed = pkg.contributes.commands.map((c: { command: string }) => c.command).sort();
  assert.deepEqual(contributed, Object.values(table).sort());
  assert.ok(contributed.length >= 8);
});

test('every command in the table gets a handler in activate()', () => {
  for (const key of Object.keys(table)) assert.match(extensionSource, new RegExp(`\\[COMMAND\\.${key}\\]:`), key);
});

test('command ids and titles follow the naming rule, with the BufferLens category', () => {
  for (const c of pkg.contributes.commands) {
    assert.match(c.command, /^bufferlens\.[a-z][a-zA-Z]+$/);
    assert.equal(c.category, 'BufferLens');
    assert.match(c.title, /^[A-Z][\w -]+$/);
  }
});

test('activation is lazy: SQL files and own contributions only, never "*"', () => {
  assert.ok(!pkg.activationEvents.includes('*'));
  assert.ok(!pkg.activationEvents.includes('onStartupFinished'));
  assert.ok(pkg.activationEvents.includes('onLanguage:sql'));
});

test('the manifest names its entry points and engine range', () => {
  assert.equal(pkg.name, 'bufferlens');
  assert.ok(pkg.publisher);
  assert.equal(pkg.main, './dist/extension.js');
  assert.deepEqual(pkg.bin, { bufferlens: 'dist/cli.js' });
  const min = /\^?(\d+)\.(\d+)/.exec(pkg.engines.vscode);
  assert.ok(min && Number(min[1]) === 1 && Number(min[2]) >= 90, pkg.engines.vscode);
});

test('connection profiles have no place for a password', () => {
  const profile = pkg.contributes.configuration.properties['bufferlens.connections'].items;
  assert.equal(profile.additionalProperties, false);
  for (const key of Object.keys(profile.properties)) assert.doesNotMatch(key, /pass|secret|pwd/i);
  assert.deepEqual(profile.properties.engine.enum, ['postgresql', 'mysql']);
  assert.equal(pkg.contributes.configuration.properties['bufferlens.defaultRuns'].default, 3);
  assert.equal(pkg.contributes.configuration.properties['bufferlens.codeLens.enabled'].default, true);
});

test('a Reports view lives in its own activity-bar container', () => {
  const container = pkg.contributes.viewsContainers.activitybar.find((c: { id: string }) => c.id === 'bufferlens');
  assert.ok(container);
  assert.ok(pkg.contributes.views.bufferlens.some((v: { id: string; name: string }) => v.id === 'bufferlens.reports' && v.name === 'Reports'));
});
