// The extension's settings and how they start the server. No VS Code API here.

import { CONFIGURATION_SECTION } from './protocol';

export interface ExtensionSettings {
  /** `executorStudio.serverPath`: empty for build/bin under the workspace, then PATH. */
  serverPath: string;
  /** `executorStudio.allowUnregisteredDialect`: passes `--allow-unregistered-dialect`. */
  allowUnregisteredDialect: boolean;
  /** `executorStudio.pipelineDiagnostics`: the passes' own errors as diagnostics. */
  pipelineDiagnostics: boolean;
  /** `executorStudio.previewTimeoutMs`: how long a preview may take (0: the server's default). */
  previewTimeoutMs: number;
}

export const DEFAULT_SETTINGS: ExtensionSettings = {
  serverPath: '',
  allowUnregisteredDialect: false,
  pipelineDiagnostics: true,
  previewTimeoutMs: 0,
};

/** The settings whose change restarts the server. */
export const RESTART_SETTINGS = [
  'serverPath',
  'allowUnregisteredDialect',
  'pipelineDiagnostics',
  'previewTimeoutMs',
].map((key) => `${CONFIGURATION_SECTION}.${key}`);

/** Reads the settings through `get` (a WorkspaceConfiguration's, in VS Code). */
export function readSettings(get: (key: string) => unknown): ExtensionSettings {
  const serverPath = get('serverPath');
  const allow = get('allowUnregisteredDialect');
  const pipelineDiagnostics = get('pipelineDiagnostics');
  const timeout = get('previewTimeoutMs');
  return {
    serverPath: typeof serverPath === 'string' ? serverPath : DEFAULT_SETTINGS.serverPath,
    allowUnregisteredDialect: typeof allow === 'boolean' ? allow : DEFAULT_SETTINGS.allowUnregisteredDialect,
    pipelineDiagnostics:
      typeof pipelineDiagnostics === 'boolean' ? pipelineDiagnostics : DEFAULT_SETTINGS.pipelineDiagnostics,
    previewTimeoutMs:
      typeof timeout === 'number' && Number.isInteger(timeout) && timeout > 0 ? timeout : DEFAULT_SETTINGS.previewTimeoutMs,
  };
}

export interface ServerLaunch {
  args: string[];
  initializationOptions: Record<string, boolean | number>;
}

/** The server's command line arguments and initializationOptions. */
export function serverLaunch(settings: ExtensionSettings): ServerLaunch {
  const args: string[] = [];
  if (settings.allowUnregisteredDialect) {
    args.push('--allow-unregistered-dialect');
  }
  const initializationOptions: Record<string, boolean | number> = {
    allowUnregisteredDialect: settings.allowUnregisteredDialect,
    pipelineDiagnostics: settings.pipelineDiagnostics,
  };
  if (settings.previewTimeoutMs > 0) {
    initializationOptions['previewTimeoutMs'] = settings.previewTimeoutMs;
  }
  return { args, initializationOptions };
}
