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
  /**
   * `executorStudio.format.dropComments`: format documents although MLIR's
   * printer drops their comments (the server refuses otherwise).
   */
  formatDropComments: boolean;
}

export const DEFAULT_SETTINGS: ExtensionSettings = {
  serverPath: '',
  allowUnregisteredDialect: false,
  pipelineDiagnostics: true,
  previewTimeoutMs: 0,
  formatDropComments: false,
};

/** Each setting's key under `executorStudio`. */
export const SETTING_KEYS: Record<keyof ExtensionSettings, string> = {
  serverPath: 'serverPath',
  allowUnregisteredDialect: 'allowUnregisteredDialect',
  pipelineDiagnostics: 'pipelineDiagnostics',
  previewTimeoutMs: 'previewTimeoutMs',
  formatDropComments: 'format.dropComments',
};

/** The settings whose change restarts the server (all of them: they are its arguments and initializationOptions). */
export const RESTART_SETTINGS = Object.values(SETTING_KEYS).map((key) => `${CONFIGURATION_SECTION}.${key}`);

/** Reads the settings through `get` (a WorkspaceConfiguration's, in VS Code). */
export function readSettings(get: (key: string) => unknown): ExtensionSettings {
  const serverPath = get('serverPath');
  const allow = get('allowUnregisteredDialect');
  const pipelineDiagnostics = get('pipelineDiagnostics');
  const timeout = get('previewTimeoutMs');
  const dropComments = get(SETTING_KEYS.formatDropComments);
  return {
    serverPath: typeof serverPath === 'string' ? serverPath : DEFAULT_SETTINGS.serverPath,
    allowUnregisteredDialect: typeof allow === 'boolean' ? allow : DEFAULT_SETTINGS.allowUnregisteredDialect,
    pipelineDiagnostics:
      typeof pipelineDiagnostics === 'boolean' ? pipelineDiagnostics : DEFAULT_SETTINGS.pipelineDiagnostics,
    previewTimeoutMs:
      typeof timeout === 'number' && Number.isInteger(timeout) && timeout > 0 ? timeout : DEFAULT_SETTINGS.previewTimeoutMs,
    formatDropComments: typeof dropComments === 'boolean' ? dropComments : DEFAULT_SETTINGS.formatDropComments,
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
    formatDropsComments: settings.formatDropComments,
  };
  if (settings.previewTimeoutMs > 0) {
    initializationOptions['previewTimeoutMs'] = settings.previewTimeoutMs;
  }
  return { args, initializationOptions };
}
