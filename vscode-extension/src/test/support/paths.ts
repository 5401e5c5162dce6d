// Where the tests find the extension, the repository and the server.

import * as fs from 'node:fs';
import * as path from 'node:path';

import { ancestors, resolveServerPath } from '../../core/serverPath';

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

/**
 * The folders that may be the repository: the extension's parent (the
 * extension in its place in the repository), then the working directory and
 * its ancestors (a copy of the extension run from inside a checkout).
 */
function repositoryCandidates(): string[] {
  return [...new Set([path.dirname(extensionRoot()), ...ancestors(process.cwd())])];
}

export type Located = { path: string } | { skip: string };

/**
 * The repository's samples/: $EXECUTOR_STUDIO_SAMPLES, else samples/ in the
 * first candidate repository that has samples/all-ops.mlir.
 */
export function locateSamples(): Located {
  const fromEnv = process.env['EXECUTOR_STUDIO_SAMPLES'] ?? '';
  if (fromEnv !== '') {
    return fs.existsSync(path.join(fromEnv, 'all-ops.mlir'))
      ? { path: path.resolve(fromEnv) }
      : { skip: `EXECUTOR_STUDIO_SAMPLES=${fromEnv} has no all-ops.mlir: the tests on the samples are skipped` };
  }
  const tried: string[] = [];
  for (const root of repositoryCandidates()) {
    const dir = path.join(root, 'samples');
    tried.push(dir);
    if (fs.existsSync(path.join(dir, 'all-ops.mlir'))) {
      return { path: dir };
    }
  }
  return {
    skip:
      `no samples/all-ops.mlir in ${tried.slice(0, 3).join(', ')}, ...: the tests on the samples are skipped ` +
      '(set EXECUTOR_STUDIO_SAMPLES to the samples/ folder of an Executor Studio checkout)',
  };
}

const samples = locateSamples();

/** Why the tests on the samples are skipped, or false. */
export const samplesSkip: string | false = 'skip' in samples ? samples.skip : false;

export function samplePath(name: string): string {
  if (!('path' in samples)) {
    throw new Error(samples.skip);
  }
  return path.join(samples.path, name);
}

/** The samples' names; none when they are not found. */
export function sampleNames(): string[] {
  if (!('path' in samples)) {
    return [];
  }
  return fs
    .readdirSync(samples.path)
    .filter((name) => name.endsWith('.mlir'))
    .sort();
}

/**
 * The server under test: $EXECUTOR_LSP_SERVER (a path, or a name on the
 * PATH, as executorStudio.serverPath takes it), else what the extension
 * itself would find from the candidate repositories (build/bin, then PATH).
 */
export function locateServer(): Located {
  const fromEnv = process.env['EXECUTOR_LSP_SERVER'] ?? '';
  const resolved = resolveServerPath({
    configured: fromEnv.includes('/') ? path.resolve(fromEnv) : fromEnv,
    workspaceFolders: repositoryCandidates(),
    envPath: process.env['PATH'] ?? '',
  });
  if (resolved.found) {
    return { path: resolved.path };
  }
  return {
    skip:
      (fromEnv === ''
        ? `executor-lsp-server is not built (looked in ${resolved.tried.slice(0, 3).join(', ')}, ... and on the PATH)`
        : `EXECUTOR_LSP_SERVER=${fromEnv} is not an executable`) +
      ': the language-server tests are skipped (build it with scripts/build.sh executor-lsp-server, ' +
      'or set EXECUTOR_LSP_SERVER to its path)',
  };
}
