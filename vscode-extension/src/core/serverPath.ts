// Where executor-lsp-server is: the `executorStudio.serverPath` setting when
// it is set, else `build/bin/executor-lsp-server` in a workspace folder (or a
// folder above it), else the PATH. No VS Code API here.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { SERVER_EXECUTABLE } from './protocol';

export interface ServerPathInput {
  /** `executorStudio.serverPath`; empty for the default search. */
  configured: string;
  /** The workspace folders (file system paths). */
  workspaceFolders: readonly string[];
  /** More folders to search from when there is no workspace (the open file's). */
  extraRoots?: readonly string[];
  /** `PATH`. */
  envPath: string;
  /** Defaults to a check that the file exists and is executable. */
  isExecutable?: (file: string) => boolean;
  /** For `~`; defaults to the user's home. */
  homeDir?: string;
}

export type ServerPathResult =
  | { found: true; path: string; source: 'setting' | 'build' | 'PATH' }
  | { found: false; message: string; tried: string[] };

/** The build directory's server, relative to the repository root. */
export const BUILD_RELATIVE_PATH = path.join('build', 'bin', SERVER_EXECUTABLE);

export function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `${workspaceFolder}`, `${userHome}` and a leading `~` in a configured path. */
export function expandConfiguredPath(configured: string, workspaceFolder: string | undefined, homeDir: string): string {
  let result = configured.trim();
  result = result.replace(/\$\{userHome\}/g, homeDir);
  if (workspaceFolder !== undefined) {
    result = result.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
  }
  if (result === '~' || result.startsWith('~/')) {
    result = path.join(homeDir, result.slice(1));
  }
  return result;
}

/** A folder and its ancestors, nearest first. */
export function ancestors(dir: string): string[] {
  const result: string[] = [];
  let current = path.resolve(dir);
  for (;;) {
    result.push(current);
    const parent = path.dirname(current);
    if (parent === current) {
      return result;
    }
    current = parent;
  }
}

export function resolveServerPath(input: ServerPathInput): ServerPathResult {
  const isExecutable = input.isExecutable ?? isExecutableFile;
  const homeDir = input.homeDir ?? os.homedir();
  const tried: string[] = [];
  const firstFolder = input.workspaceFolders[0];

  const configured = input.configured.trim();
  if (configured !== '') {
    const expanded = expandConfiguredPath(configured, firstFolder, homeDir);
    const candidates: string[] = [];
    if (path.isAbsolute(expanded)) {
      candidates.push(expanded);
    } else if (expanded.includes('/') || expanded.includes(path.sep)) {
      // Relative to a workspace folder.
      for (const folder of input.workspaceFolders) {
        candidates.push(path.resolve(folder, expanded));
      }
    } else {
      // A bare name: look it up on the PATH.
      for (const dir of input.envPath.split(path.delimiter).filter((d) => d !== '')) {
        candidates.push(path.join(dir, expanded));
      }
    }
    for (const candidate of candidates) {
      tried.push(candidate);
      if (isExecutable(candidate)) {
        return { found: true, path: candidate, source: 'setting' };
      }
    }
    return {
      found: false,
      tried,
      message:
        `executorStudio.serverPath is "${configured}", but no executable is there` +
        (candidates.length > 0 ? ` (tried ${candidates.join(', ')})` : ' (and there is no workspace folder to resolve it against)') +
        '. Build it with scripts/build.sh executor-lsp-server or fix the setting.',
    };
  }

  const roots = [...input.workspaceFolders, ...(input.extraRoots ?? [])];
  const seen = new Set<string>();
  for (const root of roots) {
    for (const dir of ancestors(root)) {
      const candidate = path.join(dir, BUILD_RELATIVE_PATH);
      if (seen.has(candidate)) {
        continue;
      }
      seen.add(candidate);
      tried.push(candidate);
      if (isExecutable(candidate)) {
        return { found: true, path: candidate, source: 'build' };
      }
    }
  }
  for (const dir of input.envPath.split(path.delimiter).filter((d) => d !== '')) {
    const candidate = path.join(dir, SERVER_EXECUTABLE);
    tried.push(candidate);
    if (isExecutable(candidate)) {
      return { found: true, path: candidate, source: 'PATH' };
    }
  }
  return {
    found: false,
    tried,
    message:
      `${SERVER_EXECUTABLE} was found neither in ${BUILD_RELATIVE_PATH} under the workspace ` +
      'nor on the PATH. Build it (scripts/build.sh executor-lsp-server) or set executorStudio.serverPath.',
  };
}
