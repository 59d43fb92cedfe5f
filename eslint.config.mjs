// ESLint for the page's TypeScript and its node tests (npm run lint; formatting is prettier's).
import './tools/lint/typescript-for-lint.cjs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = Object.fromEntries(
  ['process', 'console', 'Buffer', 'URL', 'URLSearchParams', 'Response', 'DOMException', 'WebAssembly', 'setTimeout', 'clearTimeout', 'structuredClone', 'TextEncoder', 'TextDecoder'].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['build/**', 'dist/**', 'node_modules/**', 'test-artifacts/**'] },
  {
    files: ['web/src/**/*.ts', 'web/ship/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      // STYLE.md: past ~80 lines a function is several.
      'max-lines-per-function': ['error', { max: 80 }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // DOM and engine answers are read as the engine documents them (types.ts); a cast says so.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Prettier keeps lines within 140; only a sentence's own string may run past it (i18n keys hold one literal each).
      'max-len': ['error', { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true }],
    },
  },
  {
    files: ['tests/web/**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: nodeGlobals },
    rules: { 'no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_' }] },
  },
);
