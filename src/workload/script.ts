// A workload: pgbench custom scripts with their weights. One script is one transaction; the mix runs
// scripts chosen at random by weight. pgbench's syntax (`\set`, `\sleep`, `:name` substitution, SQL ending
// at `;`, `file@W`) is accepted for every engine. A file whose statements carry
// `-- bufferlens: weight N` lines is a mix of its own: each annotated statement, with the `\set` lines
// before it, becomes one weighted script.
import { ExpressionError, evaluate, type EvalContext, type Expr, type Value } from './expression';
import { parseExpression } from './expression-parser';

export type ScriptCommand =
  { kind: 'set'; name: string; expr: Expr; line: number } | { kind: 'sleep'; microseconds: Expr; line: number } | { kind: 'sql'; text: string; line: number };

export interface WorkloadScript {
  name: string;
  weight: number;
  commands: ScriptCommand[];
}

export class ScriptError extends Error {
  constructor(
    message: string,
    readonly source: string,
    readonly line: number,
  ) {
    super(`${source}:${line}: ${message}`);
  }
}

const WEIGHT_ANNOTATION = /^\s*--\s*bufferlens:\s*weight\s+(\d+)\s*$/i;

/** `name@W` → [name, W]; a name without @ weighs 1. */
export function splitWeight(spec: string): [string, number] {
  const m = /^(.*)@(\d+)$/.exec(spec);
  if (!m) return [spec, 1];
  const w = Number(m[2]);
  if (!Number.isSafeInteger(w)) throw new ScriptError(`weight ${m[2]} is too large`, m[1], 0);
  return [m[1], w];
}

function sleepExpr(arg: string, source: string, line: number): Expr {
  const m = /^(\S+)(?:\s+(us|ms|s))?$/.exec(arg.trim());
  if (!m) throw new ScriptError(`\\sleep takes a number or :variable and an optional unit (us, ms, s), not "${arg.trim()}"`, source, line);
  const factor = m[2] === 'us' ? 1 : m[2] === 'ms' ? 1000 : 1_000_000;
  const amount = m[1].startsWith(':') ? `${m[1]}` : m[1];
  return parseExpression(`(${amount}) * ${factor}`);
}

/** Splits SQL at semicolons outside quotes, dollar quotes and comments; keeps each command's first line. */
function sqlCommands(text: string, firstLine: number): Array<{ text: string; line: number }> {
  const out: Array<{ text: string; line: number }> = [];
  let start = 0;
  let line = firstLine;
  let startLine = firstLine;
  let i = 0;
  const push = (end: number): void => {
    const body = text.slice(start, end).trim();
    const meaningful = body.replace(/--[^\n]*/g, '').trim();
    if (meaningful) out.push({ text: body, line: startLine + (text.slice(start, end).match(/^\s*/)?.[0].split('\n').length ?? 1) - 1 });
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') line++;
    if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      const end = close < 0 ? text.length : close;
      line += (text.slice(i, end).match(/\n/g) ?? []).length;
      i = end + 1;
      continue;
    }
    if (c === '-' && text[i + 1] === '-') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
      continue;
    }
    if (c === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i));
      if (tag) {
        const close = text.indexOf(tag[0], i + tag[0].length);
        const end = close < 0 ? text.length : close + tag[0].length;
        line += (text.slice(i, end).match(/\n/g) ?? []).length;
        i = end;
        continue;
      }
    }
    if (c === ';') {
      push(i);
      start = i + 1;
      startLine = line;
    }
    i++;
  }
  push(text.length);
  return out;
}

/**
 * Parses one script file's text: one script of the given weight, or, when the file has weight
 * annotations, one script per annotation (its commands up to the next annotation, after the `\set`
 * lines that precede the first annotation, which every script shares).
 */
export function parseScript(text: string, source: string, weight = 1): WorkloadScript[] {
  const lines = text.split(/\r?\n/);
  const groups: Array<{ weight: number; commands: ScriptCommand[]; line: number }> = [{ weight, commands: [], line: 1 }];
  let annotated = false;
  let sqlBuffer = '';
  let sqlStart = 0;
  const current = (): ScriptCommand[] => groups[groups.length - 1].commands;
  // A meta command or an annotation starts a line only between SQL commands, not inside one.
  const betweenCommands = (): boolean => {
    const pending = sqlBuffer.replace(/--[^\n]*/g, '').trim();
    return pending === '' || pending.endsWith(';');
  };
  const flushSql = (): void => {
    for (const c of sqlCommands(sqlBuffer, sqlStart)) current().push({ kind: 'sql', text: c.text, line: c.line });
    sqlBuffer = '';
  };
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n];
    const lineNo = n + 1;
    const w = WEIGHT_ANNOTATION.exec(raw);
    if (w && betweenCommands()) {
      flushSql();
      annotated = true;
      groups.push({ weight: Number(w[1]), commands: [], line: lineNo });
      continue;
    }
    const meta = /^\s*\\([a-z]+)\b(.*)$/.exec(raw);
    if (meta && betweenCommands()) {
      flushSql();
      const [, cmd, rest] = meta;
      try {
        if (cmd === 'set') {
          const m = /^\s+([A-Za-z_][A-Za-z0-9_]*)\s+(.+)$/.exec(rest);
          if (!m) throw new ScriptError('\\set takes a variable name and an expression', source, lineNo);
          current().push({ kind: 'set', name: m[1], expr: parseExpression(m[2]), line: lineNo });
        } else if (cmd === 'sleep') current().push({ kind: 'sleep', microseconds: sleepExpr(rest, source, lineNo), line: lineNo });
        else throw new ScriptError(`\\${cmd} is not supported in a workload (supported: \\set, \\sleep)`, source, lineNo);
      } catch (err) {
        if (err instanceof ExpressionError) throw new ScriptError(err.message, source, lineNo);
        throw err;
      }
      continue;
    }
    if (!sqlBuffer) sqlStart = lineNo;
    sqlBuffer += (sqlBuffer ? '\n' : '') + raw;
  }
  flushSql();
  let scripts: WorkloadScript[];
  if (annotated) {
    const shared = groups[0].commands;
    if (shared.some((c) => c.kind !== 'set')) {
      const first = shared.find((c) => c.kind !== 'set')!;
      throw new ScriptError('a statement before the first "-- bufferlens: weight N" line belongs to no weighted script', source, first.line);
    }
    scripts = groups.slice(1).map((g, i) => ({ name: `${source}#${i + 1}`, weight: g.weight, commands: [...shared, ...g.commands] }));
    for (let i = 0; i < scripts.length; i++) {
      if (!scripts[i].commands.some((c) => c.kind === 'sql'))
        throw new ScriptError('this weight annotation has no SQL command after it', source, groups[i + 1].line);
    }
  } else {
    scripts = [{ name: source, weight, commands: groups[0].commands }];
    if (!scripts[0].commands.some((c) => c.kind === 'sql')) throw new ScriptError('the script has no SQL command', source, 1);
  }
  for (const s of scripts) if (s.weight <= 0) throw new ScriptError('a weight must be at least 1', source, 1);
  return scripts;
}

/** pgbench's text for a value: integers as they are, doubles with 15 significant digits. */
export function valueText(v: Value): string {
  return v.int ? String(v.v) : String(Number(v.v.toPrecision(15)));
}

/** `:name` replaced by the variable's value, as pgbench substitutes it; `::type` casts and unknown names stay. */
export function substitute(sql: string, variables: Map<string, Value>): string {
  return sql.replace(/(?<!:):([A-Za-z_][A-Za-z0-9_]*)/g, (whole, name: string) => {
    const v = variables.get(name);
    return v ? valueText(v) : whole;
  });
}

/** The SQL commands of one execution of a script, with its `\set` variables evaluated in order. */
export function executeScript(script: WorkloadScript, ctx: EvalContext): { sql: string[]; sleepMicros: number } {
  const sql: string[] = [];
  let sleepMicros = 0;
  for (const c of script.commands) {
    if (c.kind === 'set') {
      try {
        ctx.variables.set(c.name, evaluate(c.expr, ctx));
      } catch (err) {
        throw new ScriptError((err as Error).message, script.name, c.line);
      }
    } else if (c.kind === 'sleep') sleepMicros += evaluate(c.microseconds, ctx).v;
    else sql.push(substitute(c.text, ctx.variables));
  }
  return { sql, sleepMicros };
}
