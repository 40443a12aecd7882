// The JavaScript's lint (`make check`, `make lint`): eslint's recommended rules, which include the two
// this project relies on, no unused names (no-unused-vars, a catch's name too) and no name that is
// not declared (no-undef: no implicit global, no misspelt one); each file is parsed as the browser
// loads it. The page scripts (<script type="module">) and the scorer's worker (a module Worker) are
// ES modules; the service worker is a classic script (navigator.serviceWorker.register('/sw.js')).
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['node_modules/', '.venv/', 'tests/artifacts/', 'instance/', 'build/', 'dist/'] },
  js.configs.recommended,
  {
    files: ['static/js/**/*.js'],
    ignores: ['static/js/scorer-worker.js', 'static/js/secure.js'],
    languageOptions: { sourceType: 'module', globals: globals.browser },
    // Modules talk by import, never through a global of the page's (window.x = ..., globalThis.x = ...).
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "AssignmentExpression > MemberExpression.left[object.name=/^(window|globalThis|self)$/]",
        message: 'no window globals: export it from a module and import it',
      }],
    },
  },
  {
    // The keypad in short functions named for what they do (issue 38): no function over 30 lines.
    files: ['static/js/picker.js', 'static/js/keypad/**/*.js'],
    rules: { 'max-lines-per-function': ['error', { max: 30, skipComments: true, skipBlankLines: true }] },
  },
  {
    files: ['static/js/secure.js'],          // a classic script, run while the page is parsed
    languageOptions: { sourceType: 'script', globals: globals.browser },
  },
  {
    files: ['static/js/scorer-worker.js'],
    languageOptions: { sourceType: 'module', globals: globals.worker },
  },
  {
    files: ['static/sw.js'],
    languageOptions: { sourceType: 'script', globals: globals.serviceworker },
  },
];
