// The whole command line (dist/cli-full.js, loaded by bin.ts).
import { COMMANDS } from './commands';
import { runProgram } from './main';

runProgram(COMMANDS);
