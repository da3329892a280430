// `bufferlens simulate` alone (dist/cli-simulate.js, loaded by bin.ts).
import { runProgram } from './main';
import { SIMULATE } from './simulate-command';

runProgram([SIMULATE]);
