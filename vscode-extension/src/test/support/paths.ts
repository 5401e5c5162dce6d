// Where the tests find the extension, the repository and the server.

import * as fs from 'node:fs';
import * as path from 'node:path';

import { resolveServerPath } from '../../core/serverPath';

/** The extension's folder (the one with its package.json). */
export function extensionRoot(): string {
  let dir = __dirname;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const parsed = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string };
      if (parsed.name === 'executor-studio') {
        return dir;
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new Error(`no executor-studio package.json above ${__dirname}`);
    }
    dir = parent;
  }
}

/** The repository (the extension's parent). */
export function repositoryRoot(): string {
  return path.dirname(extensionRoot());
}

export function samplePath(name: string): string {
  return path.join(repositoryRoot(), 'samples', name);
}

export function sampleNames(): string[] {
  return fs
    .readdirSync(path.join(repositoryRoot(), 'samples'))
    .filter((name) => name.endsWith('.mlir'))
    .sort();
}

export type ServerLocation = { path: string } | { skip: string };

/**
 * The server under test: $EXECUTOR_LSP_SERVER, else what the extension
 * itself would find from the repository (build/bin, then PATH).
 */
export function locateServer(): ServerLocation {
  const fromEnv = process.env['EXECUTOR_LSP_SERVER'] ?? '';
  const resolved = resolveServerPath({
    configured: fromEnv,
    workspaceFolders: [repositoryRoot()],
    envPath: fromEnv === '' ? (process.env['PATH'] ?? '') : '',
  });
  if (resolved.found) {
    return { path: resolved.path };
  }
  return {
    skip:
      `executor-lsp-server is not built (${fromEnv === '' ? `looked in ${resolved.tried.slice(0, 3).join(', ')}, ... and PATH` : `EXECUTOR_LSP_SERVER=${fromEnv} does not exist`}): ` +
      'the language-server tests are skipped',
  };
}
