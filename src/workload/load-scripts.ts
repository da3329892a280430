// Workload scripts from what the user names: files (`FILE@W`) and pgbench built-ins (`NAME@W`), and the
// fixed variables (`name=value`, pgbench's -D).
import { readFileSync } from 'node:fs';
import { builtinScript, BUILTIN_SCRIPTS } from './builtin-scripts';
import type { Value } from './expression';
import { parseScript, ScriptError, splitWeight, type WorkloadScript } from './script';

export class WorkloadInputError extends Error {}

export function loadScripts(files: string[], builtins: string[]): WorkloadScript[] {
  const out: WorkloadScript[] = [];
  for (const spec of builtins) {
    const [name, weight] = splitWeight(spec);
    const s = builtinScript(name, weight);
    if (!s) throw new WorkloadInputError(`"${name}" is not a built-in script (built-ins: ${Object.keys(BUILTIN_SCRIPTS).join(', ')})`);
    out.push(...s);
  }
  for (const spec of files) {
    const [path, weight] = splitWeight(spec);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new WorkloadInputError(code ? `cannot read ${path}: ${code}` : `${path} is not valid UTF-8 text`);
    }
    try {
      out.push(...parseScript(text, path, weight));
    } catch (err) {
      if (err instanceof ScriptError) throw new WorkloadInputError(err.message);
      throw err;
    }
  }
  if (out.length === 0) throw new WorkloadInputError('name a workload: a script FILE[@WEIGHT] or a built-in (select-only, tpcb-like, simple-update)');
  return out;
}

/** `name=value` pairs: integers stay integers, as pgbench's -D makes them. */
export function fixedVariables(pairs: string[]): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const p of pairs) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(-?\d+(?:\.\d+)?)$/.exec(p);
    if (!m) throw new WorkloadInputError(`a variable is set as name=number, not "${p}"`);
    const v = Number(m[2]);
    out.set(m[1], m[2].includes('.') ? { int: false, v } : { int: true, v });
  }
  return out;
}

/** Whether any script reads a variable none of its `\set` lines and no fixed value defines. */
export function usesVariable(scripts: WorkloadScript[], name: string): boolean {
  const re = new RegExp(`(?<!:):${name}\\b`);
  return scripts.some(
    (s) =>
      s.commands.some((c) => (c.kind === 'sql' ? re.test(c.text) : false)) ||
      s.commands.some((c) => c.kind === 'set' && JSON.stringify(c.expr).includes(`"name":"${name}"`)),
  );
}
