// A workload made ready to replay: each script's statements reduced to access shapes, and the engine's
// pool model to replay them through. Built by an engine's model builder from the server's plans and
// catalogs; replayed by trace.ts and curve.ts with no server.
import type { BufferPoolModel } from '../sim/types';
import type { Value } from './expression';
import type { WorkloadScript } from './script';
import type { AccessShape } from './shapes';

/** A compiled statement's role: what is neither written nor control is replayed as a read. */
export type StatementRole = 'read' | 'write' | 'control';

export interface CompiledStatement {
  /** The script's SQL, variables by name. */
  text: string;
  line: number;
  role: StatementRole;
  shapes: AccessShape[];
  /** Why this statement's pages are left out of the trace; the curve then covers the others only. */
  notModelled?: string;
  /** What the shapes simplify, in words. */
  notes: string[];
  /**
   * What the engine's background purge requests for this statement's rows once no transaction can see
   * their old versions (InnoDB), emitted `purgeLag` transactions after the statement's own.
   */
  purge?: AccessShape[];
}

export interface CompiledScript {
  script: WorkloadScript;
  statements: CompiledStatement[];
}

export interface WorkloadRelation {
  name: string;
  pages: number;
}

export interface CompiledWorkload {
  engine: 'postgresql' | 'innodb';
  server: string;
  scripts: CompiledScript[];
  /** Variables set before every transaction (pgbench's :scale, -D name=value). */
  fixed: Map<string, Value>;
  /** The server's pool now, in pages. */
  poolPages: number;
  pageBytes: number;
  relations: WorkloadRelation[];
  /**
   * A fresh, empty pool of the engine's model. `msPerAccess` is the time between two page requests, for
   * rules that count time (InnoDB's innodb_old_blocks_time); undefined: the model's default pace.
   */
  makePool(pages: number, msPerAccess?: number): BufferPoolModel;
  notes: string[];
  /** Transactions between a write and its purge (InnoDB's history list length under the workload). */
  purgeLag?: number;
}

export const dataPages = (w: CompiledWorkload): number => w.relations.reduce((a, r) => a + r.pages, 0);
