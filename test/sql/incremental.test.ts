// The incremental splitter must always agree with a full split: random edits on random SQL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IncrementalSplitter, type Dialect } from '../../src/sql/incremental';
import { scanMysql } from '../../src/sql/split-mysql';
import { scanPostgres } from '../../src/sql/split-postgres';
import { SeededRandom } from '../../src/sim/random';

const PIECES: Record<Dialect, string[]> = {
  postgresql: ['select 1', ';', ' ', '\n', "'a;b'", '"x;"', '$$ ; $$', '$t$ ; $t$', '/* ; */', '-- c;\n', '(', ')', "E'\\';'", 'from t', '$1'],
  mysql: ['select 1', ';', ' ', '\n', "'a;\\'b'", '"x;"', '`c;`', '/* ; */', '# c;\n', '-- c;\n', '\nDELIMITER //\n', '//', '\nDELIMITER ;\n', '/*! 1 */'],
};

const full = (d: Dialect, text: string) => (d === 'postgresql' ? scanPostgres(text) : scanMysql(text));

for (const dialect of ['postgresql', 'mysql'] as const) {
  test(`incremental ${dialect} splits equal full splits after random edits`, () => {
    const rnd = new SeededRandom(dialect === 'mysql' ? 3 : 4);
    const piece = () => PIECES[dialect][rnd.int(PIECES[dialect].length)];
    let text = Array.from({ length: 200 }, piece).join('');
    const inc = new IncrementalSplitter(dialect);
    inc.reset(text);
    for (let edit = 0; edit < 400; edit++) {
      const at = rnd.int(text.length + 1);
      const remove = rnd.next() < 0.5 ? rnd.int(Math.min(20, text.length - at) + 1) : 0;
      text = text.slice(0, at) + (rnd.next() < 0.7 ? piece() : '') + text.slice(at + remove);
      assert.deepEqual(inc.update(text), full(dialect, text), `edit ${edit}`);
    }
  });

  test(`random input never throws and splits fast (${dialect})`, () => {
    const rnd = new SeededRandom(99);
    for (let k = 0; k < 300; k++) {
      const len = rnd.int(2000);
      let s = '';
      for (let i = 0; i < len; i++) s += String.fromCharCode(rnd.next() < 0.8 ? 32 + rnd.int(95) : rnd.int(0x3000));
      const t0 = performance.now();
      full(dialect, s);
      assert.ok(performance.now() - t0 < 100);
    }
  });
}
