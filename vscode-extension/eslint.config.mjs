// ESLint flat config: typescript-eslint's strict, type-checked rules on src/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '*.vsix'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    files: ['src/**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: path.dirname(fileURLToPath(import.meta.url)),
      },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/explicit-function-return-type': ['error', { allowExpressions: true }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // node:test's describe and it return promises the runner awaits.
      '@typescript-eslint/no-floating-promises': ['error', {
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }],
      }],
      'eqeqeq': ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    // Only the thin VS Code layer may import 'vscode'.
    files: ['src/core/**/*.ts', 'src/test/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'vscode', message: 'src/core and the tests must not depend on the VS Code API.' },
          { name: 'vscode-languageclient', message: 'src/core must not depend on the VS Code API.' },
          { name: 'vscode-languageclient/node', message: 'src/core must not depend on the VS Code API.' },
        ],
      }],
    },
  },
  {
    files: ['eslint.config.mjs', 'esbuild.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['esbuild.mjs'],
    languageOptions: { globals: { process: 'readonly' } },
  },
);
