// What the prediction says of the pool's settings: the change buffer's and the page cleaner's. Pure.
import type { InnodbPredictionSettings } from './facts';

const n = (x: number) => x.toLocaleString('en-US');

/** The page cleaner in a run that only reads (MariaDB 10.5+: woken by the reading thread that finds too few free pages). */
export function readCleanerNote(lruScanDepth: number): string {
  return (
    `the page cleaner evicts from the LRU tail once fewer than ${n(Math.floor(lruScanDepth / 2))} pages are free, until ${n(lruScanDepth)} are ` +
    '(innodb_lru_scan_depth) or the LRU is down to 5 % of the pool, woken by the reading thread that finds too few: those pages hold no data'
  );
}

/** The change buffer's settings and the page cleaner in a run that writes. */
export function writeSettingsNote(s: InnodbPredictionSettings): string {
  const cleaner = s.lruScanDepth
    ? `; the page cleaner evicts from the LRU tail once fewer than ${n(Math.floor(s.lruScanDepth / 2))} pages are free, until ${n(s.lruScanDepth)} are ` +
      '(innodb_lru_scan_depth) or the LRU is down to 5 % of the pool, woken whenever that happens (the write leaves dirty pages)'
    : '';
  return `innodb_change_buffering=${s.changeBuffering}, change buffer up to ${s.changeBufferMaxPct} % of the pool${cleaner}`;
}
