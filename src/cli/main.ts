// `bufferlens`: the command line over the same core the editor uses. The commands come from the entry
// that loaded this (bin.ts picks one).
import type { CliCommand } from './command';
import { UsageError } from './args';
import { terminalSafe } from './terminal';
import { version } from '../../package.json';

function help(commands: CliCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'bufferlens — how many buffer-pool pages does this SQL really touch, and why?',
    '',
    'Usage: bufferlens <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run "bufferlens <command> --help" for the options of one command.',
  ].join('\n');
}

function commandHelp(c: CliCommand): string {
  return [`Usage: ${c.usage}`, '', c.summary, '', ...c.details].join('\n');
}

export async function main(argv: string[], commands: CliCommand[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help(commands) + '\n');
    return name ? 0 : 2;
  }
  if (name === '--version') {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(terminalSafe(`bufferlens: unknown command "${name}" (see bufferlens --help)`) + '\n');
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(commandHelp(command) + '\n');
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(terminalSafe(`bufferlens ${name}: ${err.message}`) + '\n');
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(terminalSafe(`bufferlens ${name}: ${message.split('\n')[0]}`) + '\n');
    if (process.env.BUFFERLENS_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    return 1;
  }
}

/** Runs the program with these commands and exits with its code. */
export function runProgram(commands: CliCommand[]): void {
  main(process.argv.slice(2), commands).then(
    (code) => {
      // Exit once the output is flushed, without waiting for what a cancel left pending (a connection
      // attempt to a server that never answers holds the event loop until its own timeout).
      process.exitCode = code;
      process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
    },
    (err: unknown) => {
      process.stderr.write(`bufferlens: ${String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
