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

/** The language server: its setting, else build/bin, else the PATH. */
export function resolveServerPath(input: ServerPathInput): ServerPathResult {
  return resolveToolPath(LANGUAGE_SERVER, input);
}

/** One of the tools the extension runs, and how to find it. */
export interface ToolSpec {
  /** The setting that names it (under executorStudio), e.g. `lldbDapPath`. */
  setting: string;
  /** Its names on the PATH (and, the first, in build/bin), nearest first. */
  names: readonly string[];
  /** Whether a workspace build's build/bin has it (the project's own tools). */
  inBuild: boolean;
  /** Absolute places to try last (e.g. /usr/lib/llvm-22/bin/lldb-dap). */
  fixed?: readonly string[];
  /** What to tell the user to do when it is nowhere. */
  hint: string;
}

export const LANGUAGE_SERVER: ToolSpec = {
  setting: 'serverPath',
  names: [SERVER_EXECUTABLE],
  inBuild: true,
  hint: 'Build it (scripts/build.sh executor-lsp-server) or set executorStudio.serverPath.',
};

export const EXECUTOR_COMPILE: ToolSpec = {
  setting: 'compilerPath',
  names: ['executor-compile'],
  inBuild: true,
  hint: 'Build it (scripts/build.sh executor-compile) or set executorStudio.compilerPath.',
};

export const EXECUTOR_SERVER: ToolSpec = {
  setting: 'executorServerPath',
  names: ['executor-server'],
  inBuild: true,
  hint: 'Build it (scripts/build.sh executor-server) or set executorStudio.executorServerPath.',
};

/** LLVM's Debug Adapter Protocol server (Debian's lldb-22 package has it). */
export const LLDB_DAP: ToolSpec = {
  setting: 'lldbDapPath',
  names: ['lldb-dap', 'lldb-dap-22'],
  inBuild: false,
  fixed: ['/usr/lib/llvm-22/bin/lldb-dap', '/usr/bin/lldb-dap-22'],
  hint: 'Install it (apt-get install lldb-22, scripts/setup.sh) or set executorStudio.lldbDapPath.',
};

export interface ToolPathInput extends Omit<ServerPathInput, 'configured'> {
  /** The tool's setting; empty for the default search. */
  configured: string;
}

/**
 * Where `tool` is: its setting when set (absolute, relative to a workspace
 * folder, or a name on the PATH), else build/bin under a workspace folder
 * (or a folder above it) for the project's own tools, else the PATH, else
 * its fixed places.
 */
export function resolveToolPath(tool: ToolSpec, input: ToolPathInput): ServerPathResult {
  const isExecutable = input.isExecutable ?? isExecutableFile;
  const homeDir = input.homeDir ?? os.homedir();
  const tried: string[] = [];
  const pathDirs = input.envPath.split(path.delimiter).filter((d) => d !== '');
  const configured = input.configured.trim();
  if (configured !== '') {
    const expanded = expandConfiguredPath(configured, input.workspaceFolders[0], homeDir);
    const candidates = path.isAbsolute(expanded)
      ? [expanded]
      : expanded.includes('/') || expanded.includes(path.sep)
        ? input.workspaceFolders.map((folder) => path.resolve(folder, expanded))
        : pathDirs.map((dir) => path.join(dir, expanded));
    for (const candidate of candidates) {
      tried.push(candidate);
      if (isExecutable(candidate)) {
        return { found: true, path: candidate, source: 'setting' };
      }
    }
    return {
      found: false,
      tried,
      message: `executorStudio.${tool.setting} is "${configured}", but no executable is there` +
        (candidates.length > 0 ? ` (tried ${candidates.join(', ')})` : ' (and there is no workspace folder to resolve it against)') +
        `. ${tool.hint}`,
    };
  }
  const first = tool.names[0] ?? '';
  if (tool.inBuild) {
    const seen = new Set<string>();
    for (const root of [...input.workspaceFolders, ...(input.extraRoots ?? [])]) {
      for (const dir of ancestors(root)) {
        const candidate = path.join(dir, 'build', 'bin', first);
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
  }
  for (const name of tool.names) {
    for (const dir of pathDirs) {
      const candidate = path.join(dir, name);
      tried.push(candidate);
      if (isExecutable(candidate)) {
        return { found: true, path: candidate, source: 'PATH' };
      }
    }
  }
  for (const candidate of tool.fixed ?? []) {
    tried.push(candidate);
    if (isExecutable(candidate)) {
      return { found: true, path: candidate, source: 'PATH' };
    }
  }
  return {
    found: false,
    tried,
    message: `${first} was found neither ` + (tool.inBuild ? `in build/bin under the workspace nor ` : '') +
      `on the PATH${tool.fixed && tool.fixed.length > 0 ? ` nor at ${tool.fixed.join(', ')}` : ''}. ${tool.hint}`,
  };
}
