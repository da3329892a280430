// Argument parsing for the CLI: strict, so an unknown flag or a missing value is a usage error (exit 2).
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** `--cold=try` is the one flag that is both a switch and takes a value; node's parser wants one or the other. */
function normaliseColdFlag(argv: string[]): string[] {
  return argv.map((a) => (a === '--cold=try' ? '--cold-try' : a === '--cold=yes' ? '--cold' : a));
}

/**
 * A value that starts with '-' (a negative number, SQL that starts with a -- comment) is the value of the
 * option before it, not an option of its own: joined as --name=value, which node's parser takes literally.
 */
function joinDashValues(argv: string[], options: OptionSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const name = a.startsWith('--') && !a.includes('=') ? a.slice(2) : undefined;
    if (name && options[name]?.type === 'string' && i + 1 < argv.length && argv[i + 1].startsWith('-')) {
      out.push(`${a}=${argv[++i]}`);
    } else out.push(a);
  }
  return out;
}

export function parse(argv: string[], options: OptionSpec, positionals: { min: number; max: number; what: string }): Parsed {
  let result;
  try {
    result = parseArgs({ args: joinDashValues(normaliseColdFlag(argv), options), options, allowPositionals: true, strict: true });
  } catch (err) {
    // node's messages are multi-line with hints; keep the first line.
    throw new UsageError(
      String((err as Error).message)
        .split('\n')[0]
        .replace(/\. To specify a positional.*$/, ''),
    );
  }
  const { values, positionals: pos } = result;
  if (pos.length < positionals.min) throw new UsageError(`missing ${positionals.what}`);
  if (pos.length > positionals.max) throw new UsageError(`unexpected argument: ${pos[positionals.max]}`);
  return { values: values as Parsed['values'], positionals: pos };
}

export function intOption(value: string | boolean | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n < min || n > max) {
    throw new UsageError(`--${name} takes a whole number from ${min} to ${max}, not "${String(value)}"`);
  }
  return n;
}
