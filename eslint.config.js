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
    },
  },
];
