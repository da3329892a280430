// Keeps a document's statements up to date after an edit without re-splitting the whole text: the scan
// restarts at the boundary before the edit and stops as soon as a statement ends where an old one ended
// (shifted by the edit) with the same splitter state; the old statements after it are reused, shifted.
import { scanMysql } from './split-mysql';
import { scanPostgres } from './split-postgres';
import type { Span } from './statement';

import type { Dialect } from '../shared/dialect';
export type { Dialect };

type Scanner = (text: string, from: number, state: string, stop?: (span: Span) => boolean) => Span[];

const SCANNERS: Record<Dialect, { scan: Scanner; initial: string }> = {
  postgresql: { scan: scanPostgres, initial: '' },
  mysql: { scan: scanMysql, initial: ';' },
};

export class IncrementalSplitter {
  private text = '';
  private spans: Span[] = [];

  constructor(readonly dialect: Dialect) {}

  get statements(): readonly Span[] {
    return this.spans;
  }

  /** Full split; for a new document or a dialect change. */
  reset(text: string): readonly Span[] {
    this.text = text;
    this.spans = SCANNERS[this.dialect].scan(text, 0, SCANNERS[this.dialect].initial);
    return this.spans;
  }

  update(text: string): readonly Span[] {
    const old = this.text;
    if (text === old) return this.spans;
    // The edited region: common prefix and suffix of the old and new text.
    const max = Math.min(old.length, text.length);
    let prefix = 0;
    while (prefix < max && old.charCodeAt(prefix) === text.charCodeAt(prefix)) prefix++;
    let suffix = 0;
    while (suffix < max - prefix && old.charCodeAt(old.length - 1 - suffix) === text.charCodeAt(text.length - 1 - suffix)) suffix++;
    const delta = text.length - old.length;
    const changeEndNew = text.length - suffix;
    // Restart after the last statement whose scan ended before the edit.
    let k = this.spans.length;
    let lo = 0;
    let hi = this.spans.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.spans[mid].next < prefix) lo = mid + 1;
      else {
        k = mid;
        hi = mid - 1;
      }
    }
    const keep = this.spans.slice(0, k);
    const from = k > 0 ? keep[k - 1].next : 0;
    const state = k > 0 ? keep[k - 1].state : SCANNERS[this.dialect].initial;
    // Old spans after the edit, by where their scan ended, for resynchronisation.
    const oldByNext = new Map<number, number>();
    for (let j = k; j < this.spans.length; j++) oldByNext.set(this.spans[j].next, j);
    let resumeAt = -1;
    const fresh = SCANNERS[this.dialect].scan(text, from, state, (span) => {
      if (span.next <= changeEndNew || span.next === text.length) return false;
      const j = oldByNext.get(span.next - delta);
      if (j !== undefined && this.spans[j].state === span.state) {
        resumeAt = j + 1;
        return true;
      }
      return false;
    });
    const tail =
      resumeAt < 0 ? [] : this.spans.slice(resumeAt).map((s) => ({ start: s.start + delta, end: s.end + delta, next: s.next + delta, state: s.state }));
    this.text = text;
    this.spans = keep.concat(fresh, tail);
    return this.spans;
  }
}
