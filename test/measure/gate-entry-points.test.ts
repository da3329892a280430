// No path sends a user's SQL without the gate (src/measure/gate.ts): every module that opens a connection is
// listed here with what it sends, and a new one fails this test until it is listed. The modules that send
// the user's statements must reach the gate's decision; the modules that send the statement's own text
// after the runs may be called only where the gate's re-ask verdict is consulted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';

/** Gated: sends a user's statements, after the gate's decision. Otherwise, why it sends only its own queries. */
const OPENERS: Record<string, 'gated' | string> = {
  'src/measure/postgres/postgres-session.ts': 'gated',
  'src/measure/innodb/innodb-session.ts': 'gated',
  'src/workload/run-workload.ts': 'gated',
  'src/workload/predict-workload.ts': 'gated',
  'src/workload/counter-sampler.ts': "workload run: the server's page counters (pg_stat_database, SHOW GLOBAL STATUS) around the run and its probe",
  'src/measure/postgres/reach.ts': "the gate's own resolution: catalog queries, and the verdict from decide()",
  'src/measure/innodb/reach.ts': "the gate's own resolution: catalog queries, and the verdict from decide()",
  'src/measure/innodb/kill-query.ts': "cancel: KILL QUERY of the measuring session's own connection, from a second one",
  'src/measure/readiness.ts': "Test Connection: the server's version, settings and grants",
  'src/measure/postgres/statement-statistics.ts': 'workload from-stats: reads pg_stat_statements',
  'src/measure/innodb/statement-statistics.ts': "workload from-stats: reads the server's statement digests",
  'src/db/postgres.ts': 'the driver wrapper: connects, and asks the version',
  'src/db/mysql.ts': 'the driver wrapper: connects, and asks the version',
  'src/local-server/postgres.ts': 'a private server BufferLens started itself: its readiness',
  'src/local-server/mariadb.ts': 'a private server BufferLens started itself: its readiness',
  'src/local-server/demo-database.ts': "the demo's own database, created by BufferLens",
};

const OPENS = /\b(?:connectPostgres|connectMysql|createConnection|new Client)\s*\(/;
const GATE_CALL = /\b(?:decide|mustRun|gateWorkload)\s*\(/;
/**
 * The statement's own text sent after the runs: a select list replaced, a plan's condition asked alone, an
 * INSERT's query asked again, or the statement EXPLAINed.
 */
const REASKS =
  /\breplaceSelectList\s*\(|(?<!function )\b(?:asAlone|insertSelectParts|insertSelectColumns|writeScanConditions)\s*\(|EXPLAIN[^`]*\$\{(?:this\.)?statement\}/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const files = sources('src').map((f) => ({ path: relative('.', f), text: readFileSync(f, 'utf8') }));
/** Whether the module imports the one at `target` (both as repository paths). */
const imports = (from: { path: string; text: string }, target: string) =>
  [...from.text.matchAll(/from '(\.[^']+)'/g)].some((m) => relative('.', resolve(dirname(from.path), m[1])) === target.replace(/\.ts$/, ''));

/** The modules that open a connection, as this test finds them; the language server's is to the editor. */
export function openers(all: Array<{ path: string; text: string }>): string[] {
  return all.filter((f) => OPENS.test(f.text) && f.path !== 'src/server/main.ts').map((f) => f.path);
}

test('every module that opens a connection is listed with what it sends; a new one is found', () => {
  assert.deepEqual(openers(files).sort(), Object.keys(OPENERS).sort());
  // The finder is no formality: a module that starts connecting is caught.
  assert.deepEqual(openers([{ path: 'src/views/x.ts', text: 'const c = await connectPostgres(t);' }]), ['src/views/x.ts']);
});

test("every module that sends a user's statements reaches the gate's decision, itself or through one module it imports", () => {
  for (const [path, what] of Object.entries(OPENERS)) {
    if (what !== 'gated') continue;
    const self = files.find((f) => f.path === path)!;
    const viaImport = files.filter((f) => GATE_CALL.test(f.text) && imports(self, f.path));
    assert.ok(GATE_CALL.test(self.text) || viaImport.length > 0, `${path} sends statements without the gate`);
  }
});

test("the modules that re-ask the statement's own text after the runs are called only where the gate's re-ask verdict is consulted", () => {
  // The sessions send the statement itself, under the gate's decision (above); select-list.ts only builds text.
  const reaskers = files.filter((f) => REASKS.test(f.text) && OPENERS[f.path] !== 'gated' && f.path !== 'src/sql/select-list.ts').map((f) => f.path);
  assert.ok(reaskers.length >= 5, `found only ${reaskers.join(', ')}`);
  for (const r of reaskers) {
    // A re-asker calling another is checked at its own callers.
    const callers = files.filter((f) => f.path !== r && imports(f, r) && !reaskers.includes(f.path));
    assert.ok(callers.length > 0, `${r} is called by nothing`);
    for (const c of callers) assert.match(c.text, /\breaskBlocked\s*\(/, `${c.path} calls ${r} without the gate's re-ask verdict`);
  }
});
