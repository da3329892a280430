// A keystroke in a 10,000-statement file: how long until the lenses are refreshed (incremental re-split and
// lens building), against a full re-split as the baseline, in the same run. Printed, not asserted.
import { TextDocument } from 'vscode-languageserver-textdocument';
import { IncrementalSplitter, type Dialect } from '../src/sql/incremental';
import { scanMysql } from '../src/sql/split-mysql';
import { scanPostgres } from '../src/sql/split-postgres';
import { buildLenses } from '../src/server/codelens';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

for (const dialect of ['postgresql', 'mysql'] as Dialect[]) {
  let text = '';
  for (let i = 0; i < 10_000; i++) text += `-- statement ${i}\nSELECT a, b, 'text;${i}' FROM t${i % 97}\n  WHERE id = ${i};\n\n`;
  let doc = TextDocument.create('file:///bench.sql', 'sql', 1, text);
  const splitter = new IncrementalSplitter(dialect);
  splitter.reset(text);
  const settings = { codeLensEnabled: true, dialect, hasConnection: true };
  const incremental: number[] = [];
  const full: number[] = [];
  for (let k = 0; k < 50; k++) {
    const at = Math.floor(text.length / 2) + k * 37;
    const pos = doc.positionAt(at);
    doc = TextDocument.update(doc, [{ range: { start: pos, end: pos }, text: 'x' }], doc.version + 1);
    const t0 = performance.now();
    const spans = splitter.update(doc.getText());
    buildLenses(doc, spans, settings, undefined);
    incremental.push(performance.now() - t0);
    const t1 = performance.now();
    buildLenses(doc, dialect === 'postgresql' ? scanPostgres(doc.getText()) : scanMysql(doc.getText()), settings, undefined);
    full.push(performance.now() - t1);
    text = doc.getText();
  }
  const inc = median(incremental);
  const base = median(full);
  console.log(
    `${dialect}: keystroke → 10,000 lenses: incremental ${inc.toFixed(2)} ms, full re-split ${base.toFixed(2)} ms (${(base / inc).toFixed(1)}× faster; budget 20 ms)`,
  );
}
