// ESLint flat config for every JavaScript file of the package, the site, the CLI, the benchmark and
// the tests. Formatting is Prettier's job (.prettierrc.json); eslint-config-prettier turns off the
// rules that would fight it.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default [
  { ignores: ['node_modules/', 'build/', 'dist/', 'web/dist/', 'coverage/', 'tests/fixtures/'] },
  js.configs.recommended,
  prettier,
  {
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node, ...globals.worker },
    },
    rules: {
      'no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          caughtErrors: 'none',
        },
      ],
      'prefer-const': 'error',
      'no-var': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'object-shorthand': 'error',
      'no-shadow': 'off',
      curly: ['error', 'multi-line'],
      // A function of more than about 80 lines is split where the split names a real step.
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // A test file's long functions are its describe() and it() bodies, as long as the cases they list:
    // splitting them would split the spec, not name a step. Shared test helpers (tests/**/*.js without
    // .test) keep the limit.
    files: ['tests/**/*.test.js'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    // Functions still over the limit: bench/attention.mjs main(), bench/browser.mjs main() and
    // bindings/analysis.js createAnalysis(). Each file leaves this list once they are split.
    files: ['bench/attention.mjs', 'bench/browser.mjs', 'bindings/analysis.js'],
    rules: { 'max-lines-per-function': 'off' },
  },
];
