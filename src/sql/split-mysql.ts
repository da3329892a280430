// Splits MySQL/MariaDB SQL the way the mysql/mariadb command-line client sends it: at the current
// delimiter (changed by DELIMITER lines, any length), never inside '…' / "…" strings (with backslash
// escapes), `identifiers`, or comments (#, "-- ", /* */). /*! … */ and /*+ … */ are sent to the server
// as part of the statement, so they start or continue one like any other text; the client strips other
// comments from what it sends, and BEGIN … END bodies need DELIMITER exactly as in the client.
import { isSpace } from './char-class';
import { LineIndex, type Span, type SqlStatement } from './statement';
import { executableComment } from './mask';

const HASH = 35;
const DASH = 45;
const SLASH = 47;
const STAR = 42;
const BACKSLASH = 92;
const NL = 10;
/** A DELIMITER line, matched where the scan stands (sticky). */
const DELIMITER_LINE = /[ \t]*delimiter[ \t]+(\S+)[^\n]*(\n|$)/iy;

export function scanMysql(text: string, from = 0, state = ';', stop?: (span: Span) => boolean): Span[] {
  const out: Span[] = [];
  let delimiter = state || ';';
  let start = -1;
  let i = from;
  const n = text.length;
  let lineStart = from === 0 || text.charCodeAt(from - 1) === NL;
  const close = (end: number, next: number): boolean => {
    if (start >= 0) {
      while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
      const span = { start, end, next, state: delimiter };
      out.push(span);
      start = -1;
      return stop?.(span) ?? false;
    }
    return false;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (lineStart && start < 0) {
      DELIMITER_LINE.lastIndex = i;
      const found = DELIMITER_LINE.exec(text);
      if (found) {
        delimiter = found[1];
        i += found[0].length;
        continue;
      }
    }
    lineStart = false;
    if (c === NL) {
      lineStart = true;
      i++;
      continue;
    }
    if (c === HASH || (c === DASH && text.charCodeAt(i + 1) === DASH && (i + 2 >= n || isSpace(text.charCodeAt(i + 2))))) {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? n : eol;
      continue;
    }
    if (c === SLASH && text.charCodeAt(i + 1) === STAR) {
      if (executableComment(text, i) && start < 0) start = i; // sent to the server as code
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (c === 39 || c === 34 || c === 96) {
      if (start < 0) start = i;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (c !== 96 && d === BACKSLASH) i += 2;
        else if (d === c) {
          if (text.charCodeAt(i + 1) === c) i += 2;
          else {
            i++;
            break;
          }
        } else i++;
      }
      continue;
    }
    if (c === delimiter.charCodeAt(0) && text.startsWith(delimiter, i)) {
      const next = i + delimiter.length;
      if (close(i, next)) return out;
      i = next;
      continue;
    }
    if (start < 0 && !isSpace(c)) start = i;
    i++;
  }
  close(n, n);
  return out;
}

export function splitMysqlOffsets(text: string): Array<[number, number]> {
  return scanMysql(text).map((s) => [s.start, s.end]);
}

export function splitMysql(text: string): SqlStatement[] {
  const lines = new LineIndex(text);
  return splitMysqlOffsets(text).map(([s, e]) => ({ sql: text.slice(s, e), startOffset: s, endOffset: e, start: lines.position(s), end: lines.position(e) }));
}
