// Blanks out string literals and comments (same length, so offsets hold), so that keywords, names and
// punctuation inside them do not count when a statement's text is read. One pass, no regular expression
// over the literal: a 10 MB literal costs 10 MB of work, never a stack.
import type { Dialect } from '../shared/dialect';

export function maskSql(sql: string, dialect: Dialect): string {
  const out = sql.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  const n = sql.length;
  let i = 0;
  while (i < n) {
    const c = sql[i];
    const d = sql[i + 1];
    if (c === '-' && d === '-' && (dialect === 'postgresql' || /\s/.test(sql[i + 2] ?? ' '))) {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      blank(i, stop);
      i = stop;
    } else if (c === '#' && dialect === 'mysql') {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && d === '*' && !(dialect === 'mysql' && (sql[i + 2] === '!' || sql[i + 2] === '+'))) {
      // PostgreSQL nests block comments; MySQL does not (and runs /*! … */ as code).
      let depth = 1;
      let k = i + 2;
      while (k < n && depth > 0) {
        if (sql[k] === '*' && sql[k + 1] === '/') {
          depth--;
          k += 2;
        } else if (dialect === 'postgresql' && sql[k] === '/' && sql[k + 1] === '*') {
          depth++;
          k += 2;
        } else k++;
      }
      blank(i, k);
      i = k;
    } else if ((c === '`' && dialect === 'mysql') || (c === '"' && dialect === 'postgresql')) {
      // A quoted identifier stays as it is, quotes inside it included.
      let k = i + 1;
      while (k < n && !(sql[k] === c && sql[k + 1] !== c)) k += sql[k] === c ? 2 : 1;
      i = k + 1;
    } else if (c === "'" || (c === '"' && dialect === 'mysql')) {
      // MySQL strings escape with a backslash; PostgreSQL's only in E'…' strings.
      const backslash = dialect === 'mysql' || (i > 0 && /[eE]/.test(sql[i - 1]) && !/\w/.test(sql[i - 2] ?? ' '));
      let k = i + 1;
      while (k < n) {
        if (backslash && sql[k] === '\\') k += 2;
        else if (sql[k] === c && sql[k + 1] === c) k += 2;
        else if (sql[k] === c) break;
        else k++;
      }
      blank(i, Math.min(n, k + 1));
      i = k + 1;
    } else if (c === '$' && dialect === 'postgresql' && !/\w/.test(sql[i - 1] ?? ' ')) {
      const tag = /^\$([A-Za-z_]\w*)?\$/.exec(sql.slice(i, i + 66));
      if (!tag) {
        i++;
        continue;
      }
      const end = sql.indexOf(tag[0], i + tag[0].length);
      const stop = end < 0 ? n : end + tag[0].length;
      blank(i, stop);
      i = stop;
    } else i++;
  }
  return out.join('');
}
