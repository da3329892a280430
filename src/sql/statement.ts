/** A 0-based position, as LSP and `bufferlens split --json` use it. */
export interface Position {
  line: number;
  character: number;
}

/** One statement of a SQL text: the exact text a client would send, and where it stands. */
export interface SqlStatement {
  sql: string;
  /** Offsets into the original text: [start, end). */
  startOffset: number;
  endOffset: number;
  start: Position;
  end: Position;
}

/** A statement as a splitter found it: its text [start, end), where scanning resumes, and the splitter
 * state in force there (MySQL: the delimiter). */
export interface Span {
  start: number;
  end: number;
  next: number;
  state: string;
}

/** Maps offsets to line/character positions in one pass over the text's line starts. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  position(offset: number): Position {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo] };
  }
}
