// ESLint flat config: typescript-eslint's recommended type-aware rules over every TypeScript file,
// no file over 400 lines, and the direction between folders, each arrow pointing down only:
//   * shared/ is below api/, crawler/, bench/ and test/ and imports none of them;
//   * api/http/ (the answer machinery) is below the routes and the apps that mount them;
//   * the error catalogue (api/errors.ts, api/error-phrasing.ts) is below api/http/, whose error
//     answer turns its entries into responses;
//   * api/subscriptions/ (parsing, links) is below the routes that use it;
//   * the platform client (shared/platform) builds on the transcript text code, the settings, the
//     store and the feed rendering, never the other way round.
// And one way to write an answer: api/http/answer.ts is the only file under api/ that writes to a
// response (`res.end`, `res.writeHead`, Express's `res.status`/`send`/`json`/`redirect`/`append`, …),
// the web app's pages, files and redirects too (html, feed, seeOther).
// (Import cycles between files, type-only ones included, are `npm run cycles`: madge.)
// Flat config replaces a rule rather than merging it, so each file group below carries every
// pattern that applies to it.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

const restricted = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const UPWARD_FROM_SHARED = { group: ['**/api', '**/api/*', '**/crawler', '**/crawler/*', '**/test/*', '**/bench/*'], message: 'shared/ is below api/, crawler/, test/ and bench/: it imports none of them.' };
const NOT_PLATFORM = { group: ['**/platform', '**/platform/*'], message: 'shared/platform depends on this folder, not the other way round (one direction, no cycle between folders).' };
const UPWARD_FROM_HTTP = { group: ['../routes', '../routes/*', '../create-app', '../server', '../main', '../mcp', '../mcp/*', '../admin', '../admin/*'], message: 'api/http/ is below the routes and the apps that mount them: they import it, not the other way round.' };
const CATALOGUE_TO_HTTP = { group: ['./http', './http/*'], message: 'The error catalogue is below api/http/: the error answer (api/http/error-answer.ts) imports it, not the other way round.' };
const SUBSCRIPTIONS_TO_ROUTES = { group: ['../routes', '../routes/*'], message: 'api/subscriptions/ is below the routes: shared helpers (origins, links) live in api/http/ or here.' };
const ANSWER_WRITES = 'writeHead|end|write|setHeader|removeHeader|flushHeaders|status|sendStatus|send|json|jsonp|type|set|header|append|sendFile|download|redirect|render|attachment|cookie|clearCookie|location|links|vary';
const ONE_WRITER = { 'no-restricted-syntax': ['error',
  { selector: `CallExpression[callee.object.name='res'][callee.property.name=/^(${ANSWER_WRITES})$/]`, message: 'Answers are written by api/http/answer.ts only (json, text, html, feed, seeOther, notModified, empty; field adds a header).' },
  { selector: "AssignmentExpression[left.object.name='res'][left.property.name=/^(statusCode|statusMessage)$/]", message: 'Answers are written by api/http/answer.ts only: it sets the status.' },
] };
const PLATFORM_BELOW = ['shared/transcript/**/*.ts', 'shared/config/**/*.ts', 'shared/store/**/*.ts', 'shared/search/**/*.ts'];

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
  { files: ['**/*.ts'], rules: { 'max-lines': ['error', { max: 400 }] } },
  { files: ['shared/**/*.ts'], rules: restricted(UPWARD_FROM_SHARED) },
  { files: PLATFORM_BELOW, rules: restricted(UPWARD_FROM_SHARED, NOT_PLATFORM) },
  { files: ['api/feed/**/*.ts'], rules: restricted(NOT_PLATFORM) },
  { files: ['api/http/**/*.ts'], rules: restricted(UPWARD_FROM_HTTP) },
  { files: ['api/errors.ts', 'api/error-phrasing.ts'], rules: restricted(CATALOGUE_TO_HTTP) },
  { files: ['api/subscriptions/**/*.ts'], rules: restricted(SUBSCRIPTIONS_TO_ROUTES) },
  { files: ['api/**/*.ts'], ignores: ['api/http/answer.ts'], rules: ONE_WRITER },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
