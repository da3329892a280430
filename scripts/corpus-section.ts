// The generated section of docs/accuracy.md for an accuracy corpus: the shares within 5 %, per statement
// class with what explains its misses, and every run. Shared by the InnoDB and PostgreSQL corpus scripts.
import { readFileSync, writeFileSync } from 'node:fs';
import { share, type CorpusRun } from '../test/accuracy/innodb-corpus';

export interface CorpusSection {
  start: string;
  end: string;
  title: string;
  /** The paragraphs under the title: how the corpus was made. */
  intro: string[];
  /** What explains each statement class's misses; a class that misses with no note shows as not yet explained. */
  misses: Record<string, string>;
  /** Whether the engine reports read-ahead (InnoDB) or has none to report (PostgreSQL). */
  readAhead: boolean;
}

const DOC = 'docs/accuracy.md';
const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(0)} %`);
const within = (m: number | null, p: number | null) => m !== null && p !== null && Math.abs(p - m) <= 0.05 * m;

/** Writes the section between its markers, or appends it. */
export function publishSection(s: CorpusSection, runs: CorpusRun[]): void {
  const text = readFileSync(DOC, 'utf8');
  const a = text.indexOf(s.start);
  const b = text.indexOf(s.end);
  const body = sectionText(s, runs);
  writeFileSync(DOC, a >= 0 && b > a ? text.slice(0, a) + body + text.slice(b + s.end.length) : `${text.trimEnd()}\n\n${body}\n`);
}

export function sectionText(s: CorpusSection, runs: CorpusRun[]): string {
  const l = share(runs, 'logical');
  const r = share(runs, 'read');
  const readName = s.readAhead ? 'pages read (synchronous + read-ahead)' : 'pages read (shared buffer misses)';
  const lines = [
    s.start,
    `## ${s.title}`,
    '',
    ...s.intro,
    '',
    `| metric | runs counted | within 5 % | in the band of the draws (± 5 %) |`,
    `|---|---|---|---|`,
    `| logical reads | ${l.counted} | ${l.within} (${pct(l.within, l.counted)}) | ${l.inBand} (${pct(l.inBand, l.counted)}) |`,
    `| ${readName} | ${r.counted} | ${r.within} (${pct(r.within, r.counted)}) | ${r.inBand} (${pct(r.inBand, r.counted)}) |`,
    '',
    '| statement class | logical: counted | within 5 % | pages read: counted | within 5 % | what explains the misses |',
    '|---|---|---|---|---|---|',
  ];
  for (const shape of [...new Set(runs.map((x) => x.shape))]) {
    const of = runs.filter((x) => x.shape === shape);
    const sl = share(of, 'logical');
    const sr = share(of, 'read');
    const missed = of.some(
      (x) =>
        ((x.measuredLogical ?? 0) >= 20 && !within(x.measuredLogical, x.predictedLogical)) ||
        ((x.measuredRead ?? 0) >= 20 && !within(x.measuredRead, x.predictedRead)),
    );
    lines.push(`| ${shape} | ${sl.counted} | ${sl.within} | ${sr.counted} | ${sr.within} | ${missed ? (s.misses[shape] ?? '**not yet explained**') : ''} |`);
  }
  const head = s.readAhead
    ? '| pool | state | statement class | run | logical | pages read | read-ahead |'
    : '| pool | state | statement class | run | logical | pages read |';
  lines.push('', 'Every run, measured / predicted (the band of the draws in brackets):', '', head, head.replace(/[^|]+/g, '---'));
  const f = (m: number | null, p: number | null, band?: [number, number]) => `${m ?? 'n/r'} / ${p ?? 'n/m'}${band ? ` (${band[0]}–${band[1]})` : ''}`;
  for (const x of runs) {
    const cells = [
      x.pool,
      x.state,
      x.shape,
      String(x.run),
      f(x.measuredLogical, x.predictedLogical, x.bandLogical),
      f(x.measuredRead, x.predictedRead, x.bandRead),
    ];
    if (s.readAhead) cells.push(f(x.measuredReadAhead, x.predictedReadAhead));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  lines.push(s.end);
  return lines.join('\n');
}
