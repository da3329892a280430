// One command of the `bufferlens` program: its help and what it runs.
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  details: string[];
  run(argv: string[]): Promise<number>;
}
