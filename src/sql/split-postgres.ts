// Splits PostgreSQL SQL the way psql sends it: at top-level semicolons, never inside strings
// ('', E'' with backslash escapes), "identifiers", $tag$ bodies, nested /* */ or -- comments.
// Blank text and "--" comments between statements belong to no statement; a /* */ comment starts one
// (psql sends it with the statement that follows). A statement of comments only is no statement.
import { isIdentPart, isIdentStart, isSpace } from './char-class';
import { LineIndex, type Span, type SqlStatement } from './statement';

const QUOTE = 39; // '
const DQUOTE = 34; // "
const DOLLAR = 36;
const SEMI = 59;
const SLASH = 47;
const STAR = 42;
const DASH = 45;
const BACKSLASH = 92;
const LPAREN = 40;
const RPAREN = 41;

/**
 * Statements from offset `from` (a boundary: 0 or just after a statement's semicolon). `stop` may end the
 * scan after any statement (the incremental splitter resynchronises that way).
 */
export function scanPostgres(text: string, from = 0, _state = '', stop?: (span: Span) => boolean): Span[] {
  const out: Span[] = [];
  const n = text.length;
  let start = -1;
  let significant = false;
  let depth = 0;
  const body = new RoutineBody();
  let i = from;
  let stopped = false;
  const close = (end: number, next: number) => {
    if (start >= 0 && significant) {
      while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
      const span = { start, end, next, state: '' };
      out.push(span);
      if (stop?.(span)) stopped = true;
    }
    start = -1;
    significant = false;
    body.reset();
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
    if (c === DASH && next === DASH) {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? n : eol + 1;
      continue;
    }
    if (c === SLASH && next === STAR) {
      if (start < 0) start = i;
      i = afterBlockComment(text, i);
      continue;
    }
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === SEMI && depth === 0 && body.depth === 0) {
      close(i, i + 1);
      if (stopped) return out;
      i++;
      continue;
    }
    if (start < 0) start = i;
    significant = true;
    if (c === QUOTE) {
      const prev = i > 0 ? text.charCodeAt(i - 1) : 0;
      const escapes = (prev === 69 || prev === 101) && (i < 2 || !isIdentPart(text.charCodeAt(i - 2)));
      i = afterQuoted(text, i, QUOTE, escapes);
      continue;
    }
    if (c === DQUOTE) {
      i = afterQuoted(text, i, DQUOTE, false);
      continue;
    }
    if (c === DOLLAR && (i === 0 || !isIdentPart(text.charCodeAt(i - 1)))) {
      const end = afterDollarQuoted(text, i);
      if (end >= 0) {
        i = end;
        continue;
      }
    }
    if (isIdentStart(c)) {
      const w = i;
      i++;
      while (i < n && isIdentPart(text.charCodeAt(i))) i++;
      if (i - w <= 9) body.word(text.slice(w, i).toLowerCase(), depth);
      else body.longWord();
      continue;
    }
    if (c === LPAREN) depth++;
    else if (c === RPAREN) depth = Math.max(0, depth - 1);
    i++;
  }
  close(n, n);
  return out;
}

/**
 * psql's heuristic (psqlscan.l) for SQL-standard function bodies: inside CREATE [OR REPLACE]
 * FUNCTION|PROCEDURE, at parenthesis depth 0, BEGIN … END (and CASE … END within it) hold semicolons.
 */
class RoutineBody {
  /** The statement's first words as letters: c(reate) o(r) r(eplace) f(unction) p(rocedure), '-' for others. */
  private words = '';
  private count = 0;
  depth = 0;

  reset(): void {
    this.words = '';
    this.count = 0;
    this.depth = 0;
  }

  /** A word longer than any that matters: counted, not spelt. */
  longWord(): void {
    this.count++;
  }

  /** The next word of the statement, lower-cased, at parenthesis depth `parens`. */
  word(word: string, parens: number): void {
    if (this.count < 4) this.words += ['create', 'function', 'procedure', 'or', 'replace'].includes(word) ? word[0] : '-';
    this.count++;
    if (!/^c(f|p|orf|orp)/.test(this.words) || parens !== 0) return;
    if (word === 'begin') this.depth++;
    else if (word === 'case' && this.depth >= 1) this.depth++;
    else if (word === 'end' && this.depth > 0) this.depth--;
  }
}

/** Just past the block comment that starts at i: PostgreSQL nests them. */
function afterBlockComment(text: string, i: number): number {
  const n = text.length;
  let nest = 1;
  i += 2;
  while (i < n && nest > 0) {
    const d = text.charCodeAt(i);
    if (d === SLASH && text.charCodeAt(i + 1) === STAR) {
      nest++;
      i += 2;
    } else if (d === STAR && text.charCodeAt(i + 1) === SLASH) {
      nest--;
      i += 2;
    } else i++;
  }
  return i;
}

/** Just past the string or identifier quoted by `quote` that starts at i (a doubled quote stands for one; E-strings escape with a backslash). */
function afterQuoted(text: string, i: number, quote: number, escapes: boolean): number {
  const n = text.length;
  i++;
  while (i < n) {
    const d = text.charCodeAt(i);
    if (escapes && d === BACKSLASH) i += 2;
    else if (d === quote) {
      if (text.charCodeAt(i + 1) === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return i;
}

/** Just past the $tag$ … $tag$ body that starts at i, or -1 where no tag starts there. */
function afterDollarQuoted(text: string, i: number): number {
  const n = text.length;
  let j = i + 1;
  if (j < n && isIdentStart(text.charCodeAt(j)) && text.charCodeAt(j) !== DOLLAR) {
    j++;
    while (j < n && isIdentPart(text.charCodeAt(j)) && text.charCodeAt(j) !== DOLLAR) j++;
  }
  if (j >= n || text.charCodeAt(j) !== DOLLAR) return -1;
  const tag = text.slice(i, j + 1);
  const end = text.indexOf(tag, j + 1);
  return end < 0 ? n : end + tag.length;
}

/** Offsets [start, end) of each statement's text, semicolon and trailing blanks excluded. */
export function splitPostgresOffsets(text: string): Array<[number, number]> {
  return scanPostgres(text).map((s) => [s.start, s.end]);
}

export function splitPostgres(text: string): SqlStatement[] {
  const lines = new LineIndex(text);
  return splitPostgresOffsets(text).map(([s, e]) => ({
    sql: text.slice(s, e),
    startOffset: s,
    endOffset: e,
    start: lines.position(s),
    end: lines.position(e),
  }));
}
