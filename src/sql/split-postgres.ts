// Splits PostgreSQL SQL the way psql sends it: at top-level semicolons, never inside strings
// ('', E'' with backslash escapes), "identifiers", $tag$ bodies, nested /* */ or -- comments.
// Comments and blank text between statements belong to no statement.
import { LineIndex, type SqlStatement } from './statement';

const isIdentStart = (c: string) => /[A-Za-z_\u0080-\uffff]/.test(c);
const isIdentChar = (c: string) => /[A-Za-z0-9_$\u0080-\uffff]/.test(c);

/** Offsets [start, end) of each statement's text, semicolon excluded, comments before it excluded. */
export function splitPostgresOffsets(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = -1; // offset of the statement's first significant character
  let i = 0;
  const n = text.length;
  let parenDepth = 0;
  const markStart = (at: number) => {
    if (start < 0) start = at;
  };
  while (i < n) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '-' && next === '-') {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? n : eol + 1;
      continue;
    }
    if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (text[i] === '*' && text[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
      continue;
    }
    if (c === "'") {
      markStart(i);
      const escapes = i > 0 && /[eE]/.test(text[i - 1]) && (i < 2 || !isIdentChar(text[i - 2]));
      i++;
      while (i < n) {
        if (escapes && text[i] === '\\') i += 2;
        else if (text[i] === "'" && text[i + 1] === "'") i += 2;
        else if (text[i] === "'") {
          i++;
          break;
        } else i++;
      }
      continue;
    }
    if (c === '"') {
      markStart(i);
      i++;
      while (i < n) {
        if (text[i] === '"' && text[i + 1] === '"') i += 2;
        else if (text[i] === '"') {
          i++;
          break;
        } else i++;
      }
      continue;
    }
    if (c === '$' && (i === 0 || !isIdentChar(text[i - 1]))) {
      const m = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(text.slice(i, i + 64));
      if (m) {
        markStart(i);
        const tag = m[0];
        const close = text.indexOf(tag, i + tag.length);
        i = close < 0 ? n : close + tag.length;
        continue;
      }
    }
    if (isIdentStart(c)) {
      markStart(i);
      while (i < n && isIdentChar(text[i])) i++;
      continue;
    }
    if (c === '(') parenDepth++;
    else if (c === ')') parenDepth = Math.max(0, parenDepth - 1);
    if (c === ';' && parenDepth === 0) {
      if (start >= 0) out.push([start, i]);
      start = -1;
      i++;
      continue;
    }
    if (!/\s/.test(c)) markStart(i);
    i++;
  }
  if (start >= 0) out.push([start, trimEndOffset(text, n)]);
  return out;
}

function trimEndOffset(text: string, end: number): number {
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  return end;
}

export function splitPostgres(text: string): SqlStatement[] {
  const lines = new LineIndex(text);
  return splitPostgresOffsets(text).map(([s, e]) => {
    const end = trimEndOffset(text, e);
    return { sql: text.slice(s, end), startOffset: s, endOffset: end, start: lines.position(s), end: lines.position(end) };
  });
}
