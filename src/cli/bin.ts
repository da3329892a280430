// The `bufferlens` program (dist/cli.js): loads one of two bundles. `simulate` gets the simulator alone,
// because a trace replay is timed whole-process against other simulators and loading the database
// drivers and the rest of the program took 0.2 s of it; every other command gets the whole program.
// The bundles are separate files next to this one (esbuild.mjs), so a plain require picks one at run time.
// eslint-disable-next-line @typescript-eslint/no-require-imports
require(process.argv[2] === 'simulate' ? './cli-simulate.js' : './cli-full.js');
