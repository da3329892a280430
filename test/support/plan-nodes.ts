// Plan nodes built by hand for tests of what reads a plan: counters all zero, a node of a type with the
// fields a test names.
import type { BufferCounters, PlanNode } from '../../src/shared/report';

export const ZERO_COUNTERS: BufferCounters = {
  sharedHit: 0,
  sharedRead: 0,
  sharedDirtied: 0,
  sharedWritten: 0,
  localHit: 0,
  localRead: 0,
  localDirtied: 0,
  localWritten: 0,
  tempRead: 0,
  tempWritten: 0,
  readTimeMs: null,
  writeTimeMs: null,
};

export function planNode(nodeType: string, more: Partial<PlanNode> = {}): PlanNode {
  return { nodeType, total: ZERO_COUNTERS, self: ZERO_COUNTERS, children: [], ...more };
}
