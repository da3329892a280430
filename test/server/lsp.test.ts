// The language server driven over LSP, as VS Code drives it: initialize, didOpen, codeLens, didChange.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type CodeLens,
} from 'vscode-languageserver-protocol/node';
import { ResultsNotification, SettingsNotification, StatementAtRequest } from '../../src/shared/lsp';

let server: ChildProcess;
let conn: ProtocolConnection;
const uri = 'file:///work/q.sql';

before(async () => {
  server = spawn(process.execPath, ['dist/server.js', '--stdio']);
  conn = createProtocolConnection(new StreamMessageReader(server.stdout!), new StreamMessageWriter(server.stdin!));
  conn.onRequest('workspace/codeLens/refresh', () => null);
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: { workspace: { codeLens: { refreshSupport: true } } },
    initializationOptions: { dialect: 'postgresql', hasConnection: true, codeLensEnabled: true },
  });
  await conn.sendNotification('initialized', {});
});
after(() => {
  conn.dispose();
  server.kill();
});

const lenses = (): Promise<CodeLens[]> => conn.sendRequest('textDocument/codeLens', { textDocument: { uri } }) as Promise<CodeLens[]>;

test('a lens above every statement, following edits', async () => {
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'sql', version: 1, text: 'select 1;\n\nselect $$;$$;\n' } });
  let l = await lenses();
  assert.equal(l.length, 2);
  assert.deepEqual(l[1].range.start, { line: 2, character: 0 });
  assert.equal(l[0].command?.title, 'Measure buffer I/O');
  assert.equal(l[0].command?.command, 'bufferlens.measureRange');
  await conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'select 0;\n' }],
  });
  l = await lenses();
  assert.equal(l.length, 3);
  assert.deepEqual(l[2].range.start, { line: 3, character: 0 });
});

test('the lens and Measure Statement at Cursor name the same statement, as the server split it', async () => {
  const l = await lenses();
  const lensStatement = l[2].command?.arguments?.[0] as { sql: string; dialect: string };
  assert.equal(lensStatement.sql, 'select $$;$$');
  assert.equal(lensStatement.dialect, 'postgresql');
  // The cursor inside the dollar-quoted body, and just after the statement's semicolon.
  const text = 'select 0;\nselect 1;\n\nselect $$;$$;\n';
  for (const offset of [text.indexOf('$$;') + 2, text.lastIndexOf(';') + 1]) {
    const at = await conn.sendRequest(StatementAtRequest, { uri, offset });
    assert.deepEqual(at, l[2].command?.arguments?.[0], `offset ${offset}`);
  }
});

test('a measured statement gets a second lens with its last result', async () => {
  await conn.sendNotification(ResultsNotification, {
    uri,
    results: [{ statement: 'select   1', summary: 'cold: 7,463 pages, 96 read', detail: 'run 1 (cold): 7,463 pages requested (logical)', reportId: 'r1' }],
  });
  const l = await lenses();
  const result = l.find((x) => x.command?.command === 'bufferlens.openReport');
  assert.equal(result?.command?.title, 'cold: 7,463 pages, 96 read');
  // The short title in the lens, the words in its tooltip.
  assert.equal(result?.command?.tooltip, 'run 1 (cold): 7,463 pages requested (logical) · open the report');
  assert.deepEqual(result?.command?.arguments, ['r1']);
});

test('without a connection the lens invites to add one; the setting turns lenses off', async () => {
  await conn.sendNotification(SettingsNotification, { dialect: 'postgresql', hasConnection: false, codeLensEnabled: true });
  let l = await lenses();
  assert.ok(l.length > 0 && l.every((x) => x.command?.command !== 'bufferlens.measureRange'));
  assert.equal(l[0].command?.command, 'bufferlens.addConnection');
  await conn.sendNotification(SettingsNotification, { dialect: 'postgresql', hasConnection: true, codeLensEnabled: false });
  l = await lenses();
  assert.deepEqual(l, []);
});

test('the MySQL dialect follows DELIMITER', async () => {
  await conn.sendNotification(SettingsNotification, { dialect: 'mysql', hasConnection: true, codeLensEnabled: true });
  const u2 = 'file:///work/m.sql';
  await conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: u2, languageId: 'sql', version: 1, text: 'DELIMITER //\ncreate procedure p() begin select 1; end//\nDELIMITER ;\nselect 2;' },
  });
  const l = (await conn.sendRequest('textDocument/codeLens', { textDocument: { uri: u2 } })) as CodeLens[];
  assert.equal(l.length, 2);
});

test('a selection measured with its semicolon is the same statement: its result lens follows', async () => {
  await conn.sendNotification(ResultsNotification, { uri, results: [{ statement: 'select 0;\n', summary: 'from a selection', reportId: 'r2' }] });
  const l = await lenses();
  assert.ok(
    l.some((x) => x.command?.title === 'from a selection'),
    l.map((x) => x.command?.title).join(' | '),
  );
});

test('a statement BufferLens would refuse gets a lens that says why, not a measure action; a typo keeps its measure lens', async () => {
  const other = 'file:///work/refused.sql';
  await conn.sendNotification(SettingsNotification, { dialect: 'postgresql', hasConnection: true, codeLensEnabled: true });
  await conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: other, languageId: 'sql', version: 1, text: 'VACUUM orders;\nSELEC 1;\nselect 2;\n' },
  });
  const l = (await conn.sendRequest('textDocument/codeLens', { textDocument: { uri: other } })) as CodeLens[];
  assert.equal(l.length, 3);
  assert.match(l[0].command!.title, /^Not measured: VACUUM cannot run inside a transaction block/);
  assert.equal(l[0].command!.command, '', 'nothing to click');
  assert.equal(l[1].command?.title, 'Measure buffer I/O', 'a typo is measured, and the server names the syntax error');
  assert.equal(l[2].command?.title, 'Measure buffer I/O');
  // On MariaDB DDL commits implicitly: said in the editor's words, without the command line's flag.
  await conn.sendNotification(SettingsNotification, { dialect: 'mysql', hasConnection: true, codeLensEnabled: true });
  await conn.sendNotification('textDocument/didChange', {
    textDocument: { uri: other, version: 2 },
    contentChanges: [{ text: 'ALTER TABLE t ADD COLUMN c INT;\nSELECT 1;\n' }],
  });
  const m = (await conn.sendRequest('textDocument/codeLens', { textDocument: { uri: other } })) as CodeLens[];
  assert.match(m[0].command!.title, /^Not measured: ALTER TABLE commits implicitly, so BufferLens could not roll it back$/);
  assert.equal(m[1].command?.title, 'Measure buffer I/O');
});

test('a connection belongs to a document: a file on a MariaDB connection is split by MySQL rules, the others by the default', async () => {
  const pgDoc = 'file:///work/pg.sql';
  const myDoc = 'file:///work/maria.sql';
  const text = 'select $$;$$;\nselect 2;\n';
  await conn.sendNotification(SettingsNotification, {
    dialect: 'postgresql',
    hasConnection: true,
    codeLensEnabled: true,
    documentDialects: { [myDoc]: 'mysql' },
  });
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri: pgDoc, languageId: 'sql', version: 1, text } });
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri: myDoc, languageId: 'sql', version: 1, text } });
  const count = async (uri: string) => ((await conn.sendRequest('textDocument/codeLens', { textDocument: { uri } })) as CodeLens[]).length;
  assert.equal(await count(pgDoc), 2, 'psql keeps the dollar-quoted body in one statement');
  assert.equal(await count(myDoc), 3, 'the mysql client splits at the semicolon inside it');
});

test('a workload file (pgbench \\set lines) gets one lens for the whole mix, no statement lenses that could only fail', async () => {
  const wuri = 'file:///work/mix.sql';
  await conn.sendNotification('textDocument/didOpen', {
    textDocument: {
      uri: wuri,
      languageId: 'sql',
      version: 1,
      text: '\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\nSELECT 1;\n',
    },
  });
  const l = (await conn.sendRequest('textDocument/codeLens', { textDocument: { uri: wuri } })) as CodeLens[];
  assert.equal(l.length, 1);
  assert.equal(l[0].command?.title, 'Predict the pool-size curve of this workload');
  assert.equal(l[0].command?.command, 'bufferlens.predictWorkload');
  assert.deepEqual(l[0].command?.arguments, [wuri]);
});
