// Blanks out string literals and comments (same length, so offsets hold), so that keywords, names and
// punctuation inside them do not count when a statement's text is read. One pass, no regular expression
// over the literal: a 10 MB literal costs 10 MB of work, never a stack.
import type { Dialect } from '../shared/dialect';

/** What starts at a position: a span to blank (a comment, a string), one to keep (a quoted identifier), or nothing. */
type Span = { blank: boolean; end: number } | undefined;

export function maskSql(sql: string, dialect: Dialect): string {
  // Kept and blanked slices, joined once: memory stays a small multiple of the text (no array per character).
  const out: string[] = [];
  let kept = 0;
  let i = 0;
  while (i < sql.length) {
    const span = commentAt(sql, i, dialect) ?? quotedAt(sql, i, dialect);
    if (!span) {
      i++;
      continue;
    }
    if (span.blank) {
      const end = Math.min(sql.length, span.end);
      out.push(sql.slice(kept, i), blanked(sql.slice(i, end)));
      kept = end;
    }
    i = span.end;
  }
  out.push(sql.slice(kept));
  return out.join('');
}

/** The same length of spaces, its line breaks kept (offsets and line numbers hold). */
function blanked(text: string): string {
  return text
    .split('\n')
    .map((line) => ' '.repeat(line.length))
    .join('\n');
}

// MySQL runs a comment opened by slash-star-bang (with or without a version) as code, MariaDB one opened
// by slash-star-M-bang too, and both read optimizer hints from slash-star-plus: statement text, never comments.
export function executableComment(sql: string, i: number): boolean {
  const e = sql[i + 2];
  return e === '!' || e === '+' || (e === 'M' && sql[i + 3] === '!');
}

function commentAt(sql: string, i: number, dialect: Dialect): Span {
  const [c, d] = [sql[i], sql[i + 1]];
  const lineComment = (c === '-' && d === '-' && (dialect === 'postgresql' || /\s/.test(sql[i + 2] ?? ' '))) || (c === '#' && dialect === 'mysql');
  if (lineComment) {
    const end = sql.indexOf('\n', i);
    return { blank: true, end: end < 0 ? sql.length : end };
  }
  if (c !== '/' || d !== '*' || (dialect === 'mysql' && executableComment(sql, i))) return undefined;
  // PostgreSQL nests block comments; MySQL does not (and runs /*! … */ as code).
  let depth = 1;
  let k = i + 2;
  while (k < sql.length && depth > 0) {
    if (sql[k] === '*' && sql[k + 1] === '/') {
      depth--;
      k += 2;
    } else if (dialect === 'postgresql' && sql[k] === '/' && sql[k + 1] === '*') {
      depth++;
      k += 2;
    } else k++;
  }
  return { blank: true, end: k };
}

function quotedAt(sql: string, i: number, dialect: Dialect): Span {
  const c = sql[i];
  const n = sql.length;
  if ((c === '`' && dialect === 'mysql') || (c === '"' && dialect === 'postgresql')) {
    // A quoted identifier stays as it is, quotes inside it included.
    let k = i + 1;
    while (k < n && !(sql[k] === c && sql[k + 1] !== c)) k += sql[k] === c ? 2 : 1;
    return { blank: false, end: k + 1 };
  }
  if (c === "'" || (c === '"' && dialect === 'mysql')) {
    // MySQL strings escape with a backslash; PostgreSQL's only in E'…' strings.
    const backslash = dialect === 'mysql' || (i > 0 && /[eE]/.test(sql[i - 1]) && !/\w/.test(sql[i - 2] ?? ' '));
    let k = i + 1;
    while (k < n) {
      if (backslash && sql[k] === '\\') k += 2;
      else if (sql[k] === c && sql[k + 1] === c) k += 2;
      else if (sql[k] === c) break;
      else k++;
    }
    // The blank stops at the text's end; the scan goes on past the closing quote.
    return { blank: true, end: k + 1 };
  }
  if (c !== '$' || dialect !== 'postgresql' || /\w/.test(sql[i - 1] ?? ' ')) return undefined;
  const tag = /^\$([A-Za-z_]\w*)?\$/.exec(sql.slice(i, i + 66));
  if (!tag) return undefined;
  const end = sql.indexOf(tag[0], i + tag[0].length);
  return { blank: true, end: end < 0 ? n : end + tag[0].length };
}
