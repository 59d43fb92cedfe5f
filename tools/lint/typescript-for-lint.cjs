// typescript-eslint parses with TypeScript's JavaScript API, which TypeScript 7 (the project's
// compiler, a native binary) no longer ships. Its `require('typescript')` is pointed at
// typescript-for-lint (TypeScript 5.9, an alias in package.json) instead; `tsc` stays 7.
// eslint.config.mjs loads this before typescript-eslint.
const Module = require('node:module');
const { sep } = require('node:path');

const LINT_PACKAGES = [`${sep}@typescript-eslint${sep}`, `${sep}typescript-eslint${sep}`, `${sep}ts-api-utils${sep}`];
const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveForLint(request, parent, ...rest) {
  const fromLint = request === 'typescript' && LINT_PACKAGES.some((name) => parent?.filename?.includes(name));
  return resolve.call(this, fromLint ? 'typescript-for-lint' : request, parent, ...rest);
};
