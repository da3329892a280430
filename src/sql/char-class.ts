// Character classes by code, for the splitters' hot loops (regular expressions per character cost ~5×).

export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0xfeff;
}

/** A letter, "_" or any non-ASCII character: where an identifier may start. */
export function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;
}

/** An identifier character (PostgreSQL also allows "$" after the first). */
export function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57) || c === 36;
}
