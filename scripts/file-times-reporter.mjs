// A node:test reporter that prints, once the run is over, how long each test file's top-level tests took,
// the slowest first: where CI's minutes go, for keeping it under its 20 (run-tests.mjs adds it beside the
// usual reporter).
export default async function* fileTimes(source) {
  const perFile = new Map();
  for await (const event of source) {
    // The run's summary begins: the table goes out now, as --test-force-exit may end the process before its last line.
    if (event.type === 'test:diagnostic' && event.data.nesting === 0 && event.data.message.startsWith('tests ')) yield table(perFile);
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (nesting !== 0 || !file || typeof details?.duration_ms !== 'number') continue;
    perFile.set(file, (perFile.get(file) ?? 0) + details.duration_ms);
  }
}

function table(perFile) {
  const rows = [...perFile].sort((a, b) => b[1] - a[1]);
  const cwd = process.cwd() + '/';
  const lines = rows.map(([file, ms]) => `${(ms / 1000).toFixed(1).padStart(7)}  ${file.replace(cwd, '')}\n`);
  return `\ntest files by time (their top-level tests, seconds):\n${lines.join('')}`;
}
