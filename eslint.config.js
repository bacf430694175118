// ESLint flat config: typescript-eslint's recommended type-aware rules over every TypeScript file,
// and the direction between folders: the platform client (shared/platform) builds on the transcript
// text code, the settings, the store and the feed rendering, never the other way round. (Import
// cycles between files, type-only ones included, are `npm run cycles`: madge.)
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['shared/transcript/**/*.ts', 'shared/config/**/*.ts', 'shared/store/**/*.ts', 'shared/search/**/*.ts', 'api/feed/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/platform', '**/platform/*'], message: 'shared/platform depends on this folder, not the other way round (one direction, no cycle between folders).' }],
      }],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
