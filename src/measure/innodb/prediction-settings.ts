// The server settings an InnoDB prediction replays with, from the variables read before run 1 and what
// the session found about the pool (frames, other pages, the LRU order, undo logs, tables to open).
import type { InnodbPredictionInput } from '../../predict/innodb/facts';
import { atLeast, type InnodbServerInfo } from './server-info';

type Settings = InnodbPredictionInput['settings'];

export interface PoolFindings {
  frames: number | undefined;
  other: number;
  lruSeed: Settings['lruSeed'];
  undo: Settings['undo'];
  /** Why no prediction can be made, where the session found out. */
  unavailable: string | undefined;
  tablesToOpen: string[] | undefined;
}

export function innodbPredictionSettings(info: InnodbServerInfo, p: PoolFindings): Settings {
  const st = info.settings;
  return {
    product: info.product,
    release: info.release.join('.'),
    poolPages: info.poolPages,
    ...(p.frames ? { poolFrames: p.frames } : {}),
    pageSize: info.pageSize,
    oldBlocksPct: Number(st.innodb_old_blocks_pct ?? 37),
    oldBlocksTime: Number(st.innodb_old_blocks_time ?? 1000),
    readAheadThreshold: Number(st.innodb_read_ahead_threshold ?? 56),
    randomReadAhead: String(st.innodb_random_read_ahead).toUpperCase() === 'ON',
    otherPagesUsed: p.other,
    ...(p.lruSeed ? { lruSeed: p.lruSeed } : {}),
    ...(p.undo ? { undo: p.undo } : {}),
    ...(p.unavailable ? { unavailable: p.unavailable } : {}),
    ...(p.tablesToOpen ? { tablesToOpen: p.tablesToOpen } : {}),
    changeBuffering: changeBufferingOf(st.innodb_change_buffering),
    changeBufferMaxPct: Number(st.innodb_change_buffer_max_size ?? 25),
    ...(st.eq_range_index_dive_limit != null ? { eqRangeIndexDiveLimit: Number(st.eq_range_index_dive_limit) } : {}),
    // MariaDB 10.5 made the page cleaner keep innodb_lru_scan_depth pages free on demand.
    ...(info.product === 'mariadb' && atLeast(info.release, 10, 5, 0) ? { lruScanDepth: Number(st.innodb_lru_scan_depth ?? 1536) } : {}),
  };
}

function changeBufferingOf(value: unknown): Settings['changeBuffering'] {
  const v = String(value ?? 'none').toLowerCase();
  return (['none', 'all', 'inserts', 'deletes', 'changes', 'purges'] as const).find((x) => x === v) ?? 'none';
}
