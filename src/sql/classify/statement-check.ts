// What an engine's statement check decides before anything is sent: the one statement to measure (the
// first of the input), whether it changes data, or why it is refused. Text is a first line of defence
// only; the sessions check again with what the server says.

export interface CheckedStatement {
  /** The exact text measured: the input's first statement. */
  statement: string;
  /** Where it starts in the input, so that a server's error position is given in the input's lines. */
  offset: number;
  /** Statements of the input after the first, which are not measured. */
  otherStatements: number;
  dataChanging: boolean;
  warnings: string[];
}

export type StatementCheck = ({ ok: true } & CheckedStatement) | { ok: false; reason: string; kind: 'input' | 'refused' };
