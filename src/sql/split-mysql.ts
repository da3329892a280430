// Splits MySQL/MariaDB SQL the way the mysql/mariadb command-line client sends it: at the current
// delimiter (changed by DELIMITER lines, any length), never inside '…' / "…" strings (with backslash
// escapes), `identifiers`, or comments (#, "-- ", /* */). /*! … */ and /*+ … */ are sent to the server
// as part of the statement, so they start or continue one like any other text.
import { LineIndex, type SqlStatement } from './statement';

export function splitMysqlOffsets(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let delimiter = ';';
  let start = -1;
  let i = 0;
  const n = text.length;
  let lineStart = true;
  const trimEnd = (e: number) => {
    while (e > 0 && /\s/.test(text[e - 1])) e--;
    return e;
  };
  while (i < n) {
    const c = text[i];
    if (lineStart && start < 0) {
      const m = /^[ \t]*delimiter[ \t]+(\S+)[^\n]*(\n|$)/i.exec(text.slice(i, i + 200));
      if (m) {
        delimiter = m[1];
        i += m[0].length;
        continue;
      }
    }
    lineStart = false;
    if (c === '\n') {
      lineStart = true;
      i++;
      continue;
    }
    if (c === '#' || (c === '-' && text[i + 1] === '-' && (i + 2 >= n || /\s/.test(text[i + 2])))) {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? n : eol;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const executable = text[i + 2] === '!' || text[i + 2] === '+';
      if (executable && start < 0) start = i;
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      if (start < 0) start = i;
      i++;
      while (i < n) {
        if (c !== '`' && text[i] === '\\') i += 2;
        else if (text[i] === c && text[i + 1] === c) i += 2;
        else if (text[i] === c) {
          i++;
          break;
        } else i++;
      }
      continue;
    }
    if (text.startsWith(delimiter, i)) {
      if (start >= 0) out.push([start, trimEnd(i)]);
      start = -1;
      i += delimiter.length;
      continue;
    }
    if (!/\s/.test(c) && start < 0) start = i;
    i++;
  }
  if (start >= 0) out.push([start, trimEnd(n)]);
  return out;
}

export function splitMysql(text: string): SqlStatement[] {
  const lines = new LineIndex(text);
  return splitMysqlOffsets(text).map(([s, e]) => ({ sql: text.slice(s, e), startOffset: s, endOffset: e, start: lines.position(s), end: lines.position(e) }));
}
