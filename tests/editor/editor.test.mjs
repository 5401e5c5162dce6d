// The VS Code extension in a real VS Code: code-server (VS Code 1.100.3 in
// a browser) driven through a headless Chromium by playwright-core, with the
// packaged .vsix installed and executorStudio.serverPath set to the
// executor-lsp-server of this build. Run by scripts/test-editor.sh, which
// installs all of it and sets:
//
//   EDITOR_CODE_SERVER  the code-server package folder
//   EDITOR_PLAYWRIGHT   the playwright-core package folder
//   EDITOR_CHROMIUM     the Chromium executable
//   EDITOR_VSIX         the .vsix to install
//   EDITOR_SERVER       executor-lsp-server
//   EDITOR_OPT          executor-opt (writes and reads the .mlirbc file)
//   EDITOR_SAMPLES      the repository's samples/
//   EDITOR_COMPILE      executor-compile (the executor-kernel debugger's compiler)
//   EDITOR_EXECUTOR_SERVER  executor-server (the debugger's executor, --debug-wait)
//   EXECUTOR_STUDIO_EDITOR_SCREENSHOTS  where the screenshots go (optional)
//   EXECUTOR_STUDIO_DOCS_SCREENSHOT     also write the README's screenshot there (optional)
//   EXECUTOR_STUDIO_DOCS_DEBUG_SCREENSHOT  and the debugging one (optional)
//
// The steps run in order on one editor; each leaves a screenshot.

import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';

function required(name) {
  const value = process.env[name] ?? '';
  if (value === '') {
    throw new Error(`${name} is not set: run scripts/test-editor.sh`);
  }
  return value;
}

const codeServer = required('EDITOR_CODE_SERVER');
const playwright = createRequire(import.meta.url)(required('EDITOR_PLAYWRIGHT'));
const chromiumPath = required('EDITOR_CHROMIUM');
const vsix = required('EDITOR_VSIX');
const serverPath = required('EDITOR_SERVER');
const samples = required('EDITOR_SAMPLES');
const optPath = required('EDITOR_OPT');
const compilePath = required('EDITOR_COMPILE');
const executorServerPath = required('EDITOR_EXECUTOR_SERVER');

const STEP_TIMEOUT = 90_000;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'executor-studio-editor-'));
const userDataDir = path.join(scratch, 'user-data');
const extensionsDir = path.join(scratch, 'extensions');
const workspace = path.join(scratch, 'workspace');
const shots = process.env['EXECUTOR_STUDIO_EDITOR_SCREENSHOTS'] || path.join(scratch, 'screenshots');
fs.mkdirSync(shots, { recursive: true });
console.log(`screenshots: ${shots}`);

let shotCount = 0;
let codeServerProcess;
let codeServerLog = '';
let browser;
let page;
let serverPid;

// --- helpers -------------------------------------------------------------

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor(what, check, timeoutMs = 30_000, intervalMs = 250) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await check();
      if (value) {
        return value;
      }
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      await shot(`timeout-${what.replace(/\W+/g, '-').slice(0, 40)}`);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last.message}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

async function shot(name, file) {
  if (page === undefined) {
    return;
  }
  shotCount += 1;
  const target = file ?? path.join(shots, `${String(shotCount).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: target });
  console.log(`  screenshot: ${target}`);
}

/** The executor-lsp-server processes running now: pid and arguments. */
function serverProcesses() {
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
      if (argv[0] === serverPath && !argv.includes('--record-worker')) {
        found.push({ pid: Number(entry), args: argv.slice(1) });
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}

function writeSettings(settings) {
  const dir = path.join(userDataDir, 'User');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
}

const baseSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'editor.hover.delay': 200,
  'editor.minimap.enabled': false,
  'window.restoreWindows': 'none',
  'files.hotExit': 'off',
  'chat.commandCenter.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

/**
 * Adds `settings` to the remote window's settings (the Remote tab's file,
 * where code-server's window reads the extension's machine-overridable
 * settings from): VS Code reloads the file when it changes.
 */
function addRemoteSettings(settings) {
  const file = path.join(userDataDir, 'Machine', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const current = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8') || '{}') : {};
  fs.writeFileSync(file, JSON.stringify({ ...current, ...settings }, null, 2));
}

/** The text of the Executor Studio output (the extension's log file). */
function extensionLog() {
  const logs = path.join(userDataDir, 'logs');
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (entry.name.endsWith('Executor Studio.log')) {
        found.push(full);
      }
    }
  };
  if (fs.existsSync(logs)) {
    walk(logs);
  }
  return found.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
}

/** Every extension host log's text. */
function extensionHostLogs() {
  const logs = path.join(userDataDir, 'logs');
  const texts = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (/exthost\.log$/.test(entry.name)) {
        texts.push(fs.readFileSync(full, 'utf8'));
      }
    }
  };
  if (fs.existsSync(logs)) {
    walk(logs);
  }
  return texts.join('\n');
}

/**
 * Closes a quick pick or quick open that is still up (one the extension shows
 * a moment after its command ran, too): returns once none has been up for a
 * while.
 */
async function closeQuickInput() {
  const widget = page.locator('.quick-input-widget').first();
  for (let i = 0; i < 10; ++i) {
    if (!(await widget.isVisible())) {
      await page.waitForTimeout(300);
      if (!(await widget.isVisible())) {
        return;
      }
    }
    await page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: 2000 }).catch(() => undefined);
  }
  throw new Error('a quick pick stays open');
}

async function runCommand(title) {
  await closeQuickInput();
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible' });
  await row.click();
}

async function openFile(name) {
  await closeQuickInput();
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(name);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
  await row.waitFor({ state: 'visible' });
  await row.click();
  await page.locator('.tab.active', { hasText: name }).first().waitFor({ state: 'visible' });
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().waitFor({ state: 'visible' });
}

async function goTo(line, column) {
  await closeQuickInput();
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
}

async function notifications() {
  return page.locator('.notification-toast .notification-list-item-message').allInnerTexts();
}

async function clearNotifications() {
  await runCommand('Notifications: Clear All Notifications');
  await page.waitForTimeout(300);
}

async function activeEditorText() {
  return page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText();
}

/**
 * Selects the first `text` in the active editor (through the find widget,
 * which leaves its match selected when it closes) and types `replacement`
 * over it.
 */
async function replaceInEditor(text, replacement) {
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Control+F');
  const find = page.locator('.editor-group-container.active .find-widget textarea, .editor-group-container.active .find-widget input').first();
  await find.waitFor({ state: 'visible' });
  await find.fill(text);
  await waitFor(`a match of ${text}`, async () => {
    const count = await page.locator('.editor-group-container.active .find-widget .matchesCount').first().innerText();
    return /^1 of \d+$/.test(count.trim()) ? count : undefined;
  }, 10_000);
  await page.keyboard.press('Escape');
  await page.keyboard.type(replacement);
  await waitFor(`the editor to show ${replacement}`, async () => (await activeEditorText()).replace(/\u00a0/g, ' ').includes(replacement), 10_000);
}

async function problemRows() {
  return page.locator('.markers-panel .monaco-list-row').allInnerTexts();
}

let failed;

/** A step of the test: skipped after a failed one; a failure leaves a screenshot. */
function step(name, fn, timeout = STEP_TIMEOUT) {
  it(name, { timeout }, async (t) => {
    if (failed !== undefined) {
      t.skip(`"${failed}" failed`);
      return;
    }
    try {
      await fn();
    } catch (error) {
      failed = name;
      await shot(`failed-${name.replace(/\W+/g, '-').slice(0, 40)}`).catch(() => undefined);
      throw error;
    }
  });
}

// --- the editor ----------------------------------------------------------

before(async () => {
  fs.mkdirSync(workspace, { recursive: true });
  for (const name of fs.readdirSync(samples).filter((n) => n.endsWith('.mlir'))) {
    fs.copyFileSync(path.join(samples, name), path.join(workspace, name));
  }
  const allOps = fs.readFileSync(path.join(samples, 'all-ops.mlir'), 'utf8');
  assert.ok(allOps.includes('!executor.session'));
  fs.writeFileSync(path.join(workspace, 'broken.mlir'), allOps.replace('!executor.session', '!executor.sesion'));
  // A launch of a scalar no executor carries (i128) into a dispatched
  // target: the pipeline's own error.
  fs.writeFileSync(
    path.join(workspace, 'scalar-launch.mlir'),
    `// An i128 cannot be sent to an executor: dispatch-executor-targets says so.
module {
  func.func @main(%x: i128) {
    catalyst.launch_kernel @compute::@scalar(%x) : (i128) -> ()
    return
  }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "127.0.0.1:4711"}} {
    func.func @scalar(%x: i128) {
      return
    }
  }
}
`,
  );

  // A .mlirbc file, written by executor-opt.
  const written = spawnSync(optPath, [path.join(samples, 'cross-compile-dispatch.mlir'), '--emit-bytecode', '-o', path.join(workspace, 'host.mlirbc')], { encoding: 'utf8' });
  assert.equal(written.status, 0, `executor-opt --emit-bytecode: ${written.stderr}`);

  const entry = path.join(codeServer, 'out', 'node', 'entry.js');
  const common = ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  const install = spawnSync(process.execPath, [entry, ...common, '--install-extension', vsix], { encoding: 'utf8' });
  assert.equal(install.status, 0, `code-server --install-extension ${vsix}:\n${install.stdout}\n${install.stderr}`);
  assert.match(install.stdout, /was successfully installed/);

  // First with a server path that does not exist: the extension must say so.
  writeSettings({ ...baseSettings, 'executorStudio.serverPath': path.join(scratch, 'no-such-dir', 'executor-lsp-server') });
  const config = path.join(scratch, 'config.yaml');
  fs.writeFileSync(config, '');
  const port = await freePort();
  codeServerProcess = spawn(
    process.execPath,
    [
      entry,
      '--config', config,
      '--auth', 'none',
      '--bind-addr', `127.0.0.1:${port}`,
      ...common,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      workspace,
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_CONFIG_HOME: path.join(scratch, 'xdg-config'), XDG_DATA_HOME: path.join(scratch, 'xdg-data') } },
  );
  codeServerProcess.stdout.on('data', (chunk) => { codeServerLog += chunk; });
  codeServerProcess.stderr.on('data', (chunk) => { codeServerLog += chunk; });
  await waitFor('code-server to listen', () => codeServerLog.includes('HTTP server listening'), 60_000);

  browser = await playwright.chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.explorer-folders-view, .monaco-workbench .part.sidebar').first().waitFor({ state: 'visible', timeout: 60_000 });
});

after(async () => {
  try {
    await browser?.close();
  } finally {
    if (codeServerProcess?.pid !== undefined) {
      try {
        process.kill(-codeServerProcess.pid, 'SIGTERM');
      } catch {
        // Gone already.
      }
      const exited = await waitFor('code-server to exit', () => codeServerProcess.exitCode !== null || codeServerProcess.signalCode !== null, 10_000).catch(() => false);
      if (!exited) {
        try {
          process.kill(-codeServerProcess.pid, 'SIGKILL');
        } catch {
          // Gone already.
        }
      }
    }
  }
  // The server never outlives the editor (--clientProcessId).
  if (serverPid !== undefined) {
    await waitFor('executor-lsp-server to exit with the editor', () => !serverProcesses().some((p) => p.pid === serverPid), 10_000);
  }
  if (!process.env['EXECUTOR_STUDIO_EDITOR_KEEP']) {
    for (const dir of [userDataDir, extensionsDir, workspace, path.join(scratch, 'xdg-config'), path.join(scratch, 'xdg-data')]) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
});

describe('Executor Studio in VS Code (code-server 4.100.3)', { timeout: STEP_TIMEOUT * 20 }, () => {
  step('says why the server did not start when executorStudio.serverPath is wrong', async () => {
    await openFile('all-ops.mlir');
    const message = await waitFor('an error notification about the server path', async () =>
      (await notifications()).find((text) => text.includes('executorStudio.serverPath')),
    );
    assert.match(message, /no-such-dir\/executor-lsp-server", but no executable is there/);
    const toast = page.locator('.notification-toast', { hasText: 'executorStudio.serverPath' }).first();
    for (const action of ['Open Settings', 'Show Log', 'Restart Server']) {
      assert.ok((await toast.locator('.monaco-button', { hasText: action }).count()) > 0, `the notification offers ${action}`);
    }
    assert.deepEqual(serverProcesses(), []);
    await page.waitForTimeout(800);
    await shot('wrong-server-path');
  });

  step('activates without errors and runs the server once the setting is right', async () => {
    // As a user would: the notification's "Open Settings", then the path.
    const toast = page.locator('.notification-toast', { hasText: 'executorStudio.serverPath' }).first();
    await toast.locator('.monaco-button', { hasText: 'Open Settings' }).first().click();
    // A remote window (code-server is one): the Remote tab, where the
    // extension's "Open Settings" takes the user.
    await page.locator('.settings-editor .settings-tabs-widget .action-label.checked', { hasText: 'Remote' }).first().waitFor({ state: 'visible' });
    const setting = page.locator('.settings-editor .setting-item-contents', { hasText: 'Path to' }).first();
    await setting.waitFor({ state: 'visible' });
    const input = setting.locator('input').first();
    await input.fill(serverPath);
    await input.press('Enter');
    await page.waitForTimeout(500);
    await shot('server-path-setting');
    const running = await waitFor('executor-lsp-server to run', () => serverProcesses()[0], 30_000);
    serverPid = running.pid;
    assert.ok(running.args.includes('--stdio'), running.args.join(' '));
    const clientPid = running.args.find((a) => a.startsWith('--clientProcessId='))?.split('=')[1];
    assert.ok(clientPid !== undefined && fs.existsSync(`/proc/${clientPid}`), `--clientProcessId names a live process: ${running.args.join(' ')}`);
    const log = await waitFor('the extension to log the start', () => {
      const text = extensionLog();
      return text.includes(`Starting ${serverPath} --stdio --clientProcessId=`) ? text : undefined;
    });
    assert.match(log, /Settings changed: restarting executor-lsp-server/);
    const hostLog = extensionHostLogs();
    assert.match(hostLog, /executor-studio\.executor-studio/);
    assert.doesNotMatch(hostLog, /Activating extension .?executor-studio\.executor-studio.? failed/);
    await page.waitForTimeout(1000);
    assert.deepEqual(
      (await notifications()).filter((t) => !t.includes('executorStudio.serverPath is')),
      [],
      'no other notification after the restart',
    );
    await runCommand('View: Close All Editor Groups');
    await clearNotifications();
    await shot('server-running');
  });

  step('shows an error in the Problems panel for a broken file and none for a clean sample', async () => {
    await openFile('broken.mlir');
    await page.keyboard.press('Control+Shift+M');
    await page.locator('.markers-panel').first().waitFor({ state: 'visible' });
    const rows = await waitFor('a problem for broken.mlir', async () => {
      const texts = await problemRows();
      return texts.some((t) => t.includes('sesion')) ? texts : undefined;
    });
    assert.ok(rows.some((t) => t.includes('broken.mlir')), rows.join('\n'));
    assert.ok(!rows.some((t) => t.includes('all-ops.mlir')), `all-ops.mlir has no problems:\n${rows.join('\n')}`);
    await shot('problems-broken-file');
    // The clean sample, open in its own tab, still has none.
    await openFile('all-ops.mlir');
    await page.waitForTimeout(1500);
    const after = await problemRows();
    assert.ok(!after.some((t) => t.includes('all-ops.mlir')), `all-ops.mlir has no problems:\n${after.join('\n')}`);
    await shot('problems-clean-sample');
  });

  step('shows the documentation of an executor op on hover', async () => {
    const text = fs.readFileSync(path.join(workspace, 'all-ops.mlir'), 'utf8').split('\n');
    const line = text.findIndex((l) => l.includes('= executor.open('));
    assert.ok(line >= 0);
    await goTo(line + 1, text[line].indexOf('executor.open') + 3);
    await runCommand('Show or Focus Hover');
    const hover = await waitFor('the hover', async () => {
      const texts = await page.locator('.monaco-hover:visible .hover-contents, .monaco-hover:visible .markdown-hover').allInnerTexts();
      return texts.find((t) => t.includes('executor.open'));
    });
    assert.match(hover, /Open a session with an executor/);
    assert.match(hover, /__catalyst__executor__open/);
    await shot('hover-executor-open');
    await page.keyboard.press('Escape');
    await closeQuickInput();
  });

  step("lists the pipeline's passes and shows the IR after one", async () => {
    await openFile('cross-compile-dispatch.mlir');
    await runCommand('Executor: Show Pipeline Preview');
    const rows = await waitFor('the pass list', async () => {
      const texts = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
      return texts.some((t) => t.includes('dispatch-executor-targets')) ? texts : undefined;
    }, 60_000);
    const all = rows.join('\n');
    for (const pass of ['input', 'lower-runtime-dispatch', 'cross-compile-targets', 'dispatch-executor-targets']) {
      assert.ok(all.includes(pass), `${pass} is listed:\n${all}`);
    }
    assert.match(all, /changed · /);
    await shot('preview-pass-list');
    await page.locator('.quick-input-widget input').fill('dispatch-executor-targets');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'dispatch-executor-targets' }).first().waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: 'dispatch-executor-targets' }).first().waitFor({ state: 'visible' });
    const ir = await waitFor('the IR after dispatch-executor-targets', async () => {
      const t = await activeEditorText();
      return t.includes('executor.') ? t : undefined;
    });
    assert.match(ir.replace(/\u00a0/g, ' '), /executor\.(open|launch)/);
    await shot('preview-pass-ir');
  });

  step('runs the preview from a code lens and opens the IR at its pass', async () => {
    await openFile('cross-compile-dispatch.mlir');
    const text = fs.readFileSync(path.join(workspace, 'cross-compile-dispatch.mlir'), 'utf8').split('\n');
    const line = text.findIndex((l) => l.includes('catalyst.launch_kernel @compute::@square'));
    await goTo(line + 1, 1);
    const lens = page.locator('.editor-group-container.active .codelens-decoration a', { hasText: 'executor.launch' }).first();
    await lens.waitFor({ state: 'visible', timeout: 30_000 });
    const title = await lens.innerText();
    await shot('code-lens');
    await lens.click();
    await page.locator('.tab.active', { hasText: 'dispatch-executor-targets' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    const ir = await waitFor('the IR the lens opened', async () => {
      const t = await activeEditorText();
      return t.includes('executor.launch') ? t : undefined;
    });
    assert.ok(ir.length > 0, title);
    await shot('code-lens-opened-pass');
  });

  step('compares a pass with the one before it, structurally', async () => {
    await runCommand('Executor: Compare with Previous Pass');
    const diff = page.locator('.editor-group-container.active .monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: 30_000 });
    // The server's structural diff (executor/alignedSnapshots), not the line diff.
    const tab = page.locator('.tab.active', { hasText: '↔' }).first();
    await tab.waitFor({ state: 'visible' });
    assert.match(await tab.innerText(), /dispatch-executor-targets.*· structural/s);
    // The aligned texts (side by side, or inline in a narrow group): the
    // launches the pass rewrote.
    const shown = await waitFor('the texts of the diff', async () => {
      const t = (await diff.locator('.view-lines').allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
      return t.includes('module @host') && t.includes('executor.launch') ? t : undefined;
    });
    assert.match(shown, /catalyst\.launch_kernel|executor\.open/);
    await shot('compare-with-previous-pass');
  });

  step('follows an op through every pass down to its assembly (Show This Op after Each Pass)', async () => {
    await runCommand('View: Close All Editor Groups');
    await clearNotifications();
    await openFile('cross-compile-dispatch.mlir');
    const text = fs.readFileSync(path.join(workspace, 'cross-compile-dispatch.mlir'), 'utf8').split('\n');
    // The kernel's own op: @compute::@square's arith.mulf.
    const line = text.findIndex((l) => l.includes('%sq = arith.mulf'));
    assert.ok(line >= 0);
    await goTo(line + 1, text[line].indexOf('arith.mulf') + 1);
    await runCommand('Executor: Show This Op after Each Pass');
    const title = await waitFor("the op's history", async () => {
      const t = await page.locator('.quick-input-widget .quick-input-title').first().innerText();
      return t.includes('after each pass') ? t : undefined;
    }, 60_000);
    assert.match(title, /cross-compile-dispatch\.mlir: .* after each pass \(in \d+ of \d+ snapshots\)/);
    const rows = (await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).map((r) => r.replace(/\u00a0/g, ' '));
    const all = rows.join('\n');
    // The input, where it is; the kernel's own steps, nested under cross-compile-targets.
    assert.ok(rows[0].includes('input') && rows[0].includes('arith.mulf'), all);
    assert.match(all, /compute\/extracted/);
    await shot('op-history-list');
    // Its assembly, found by the .loc lines that survive to it.
    await page.locator('.quick-input-widget input').fill('compute/asm');
    const asmRow = page.locator('.quick-input-list .monaco-list-row', { hasText: 'compute/asm' }).first();
    await asmRow.waitFor({ state: 'visible' });
    const asmText = (await asmRow.innerText()).replace(/\u00a0/g, ' ');
    assert.match(asmText, /lines? \d+.* · assembly/s, asmText);
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: 'compute_asm' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    // The assembly, scrolled to the op's first line, which is selected.
    const asm = await waitFor('the assembly with the op selected', async () => {
      const t = (await activeEditorText()).replace(/\u00a0/g, ' ');
      const selected = await page.locator('.editor-group-container.active .monaco-editor .selected-text').count();
      return t.includes('.loc') && selected > 0 ? t : undefined;
    });
    assert.match(asm, /mul/);
    await shot('op-history-asm');

    // From a pass of the preview: the host's launch, followed to what
    // dispatch-executor-targets made of it.
    await runCommand('View: Close All Editor Groups');
    await openFile('cross-compile-dispatch.mlir');
    const launch = text.findIndex((l) => l.includes('catalyst.launch_kernel @compute::@square'));
    await goTo(launch + 1, text[launch].indexOf('catalyst.launch_kernel') + 1);
    await runCommand('Executor: Show This Op after Each Pass');
    await waitFor("the launch's history", async () =>
      (await page.locator('.quick-input-widget .quick-input-title').first().innerText()).includes('after each pass'),
    60_000);
    await page.locator('.quick-input-widget input').fill('dispatch-executor-targets');
    const dispatchRow = page.locator('.quick-input-list .monaco-list-row', { hasText: 'dispatch-executor-targets' }).first();
    await dispatchRow.waitFor({ state: 'visible' });
    assert.match((await dispatchRow.innerText()).replace(/\u00a0/g, ' '), /executor\.launch/);
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: 'dispatch-executor-targets' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await waitFor('the launch after dispatch-executor-targets', async () =>
      (await activeEditorText()).replace(/\u00a0/g, ' ').includes('executor.launch'),
    );
    await shot('op-history-pass');
  });

  step('says so when the server dies, restarts it, and the preview works on the new one', async () => {
    await runCommand('View: Close All Editor Groups');
    await clearNotifications();
    const [running] = serverProcesses();
    assert.ok(running, 'the server runs');
    process.kill(running.pid, 'SIGKILL');
    const message = await waitFor('a notification that the server stopped', async () =>
      (await notifications()).find((t) => t.includes('killed by SIGKILL')),
    );
    assert.match(message, new RegExp(`${serverPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was killed by SIGKILL`));
    await shot('server-died');
    await clearNotifications();
    await openFile('cross-compile-dispatch.mlir');
    await runCommand('Executor: Show Pipeline Preview');
    await waitFor('the pass list after the restart', async () => {
      const texts = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
      return texts.some((t) => t.includes('dispatch-executor-targets'));
    }, 60_000);
    const [again] = serverProcesses();
    assert.ok(again && again.pid !== running.pid, 'a new server runs');
    serverPid = again.pid;
    await closeQuickInput();
  });

  step('shows an executor diagnostic and the pipeline preview side by side (the README screenshot)', async () => {
    await runCommand('View: Close All Editor Groups');
    await clearNotifications();
    await openFile('scalar-launch.mlir');
    await page.keyboard.press('Control+Shift+M');
    const rows = await waitFor("the pipeline's own error in the Problems panel", async () => {
      const texts = await problemRows();
      return texts.some((t) => t.includes('dispatch-executor-targets')) ? texts : undefined;
    });
    assert.ok(rows.some((t) => /cannot be sent to an executor/.test(t)), rows.join('\n'));
    await openFile('cross-compile-dispatch.mlir');
    await runCommand('Executor: Show Pipeline Preview');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'dispatch-executor-targets' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator('.quick-input-widget input').fill('dispatch-executor-targets');
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: 'dispatch-executor-targets' }).first().waitFor({ state: 'visible' });
    // The broken file on the left, above its problem.
    await page.locator('.tab', { hasText: 'cross-compile-dispatch.mlir' }).first().click();
    await openFile('scalar-launch.mlir');
    await goTo(4, 5);
    await page.waitForTimeout(1000);
    await shot('readme');
    const docs = process.env['EXECUTOR_STUDIO_DOCS_SCREENSHOT'];
    if (docs) {
      await shot('readme-docs', docs);
    }
  });

  step('opens a .mlirbc file as text, and saving it writes bytecode', async () => {
    await runCommand('View: Close All Editor Groups');
    await clearNotifications();
    await openFile('host.mlirbc');
    const text = await waitFor('the bytecode as text', async () => {
      const t = (await activeEditorText()).replace(/\u00a0/g, ' ');
      return t.includes('module @host') ? t : undefined;
    });
    assert.match(text, /func\.func @main/);
    // The text editor of the mlir.bytecode-mlir document replaced the custom editor.
    assert.equal(await page.locator('.editor-group-container.active .monaco-editor').count() > 0, true);
    await shot('mlirbc-as-text');
    await replaceInEditor('ADDR:PORT', '10.0.0.9:7000');
    await page.keyboard.press('Control+S');
    const bytecode = path.join(workspace, 'host.mlirbc');
    const readBack = await waitFor('executor-opt to read the saved bytecode with the edit', () => {
      const bytes = fs.readFileSync(bytecode);
      if (bytes.subarray(0, 4).toString('latin1') !== 'ML\xefR') {
        return undefined;
      }
      const read = spawnSync(optPath, [bytecode], { encoding: 'utf8' });
      return read.status === 0 && read.stdout.includes('10.0.0.9:7000') ? read.stdout : undefined;
    });
    assert.match(readBack, /catalyst\.launch_kernel @compute::@square/);
    await page.locator('.tab.active.dirty').waitFor({ state: 'detached' });
    await shot('mlirbc-saved');
  });

  step('edits the IR after a pass from the preview, and its save re-runs the rest', async () => {
    await runCommand('View: Close All Editor Groups');
    await clearNotifications();
    await openFile('cross-compile-dispatch.mlir');
    await runCommand('Executor: Show Pipeline Preview');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'cross-compile-targets' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator('.quick-input-widget input').fill('cross-compile-targets');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'cross-compile-targets' }).first().waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: 'cross-compile-targets' }).first().waitFor({ state: 'visible' });
    // From the read-only pass: its editable snapshot.
    await runCommand('Executor: Edit This Pass and Re-run the Rest');
    await page.locator('.tab.active', { hasText: 'cross-compile-targets.edit.mlir' }).first().waitFor({ state: 'visible' });
    // (Only the lines in view are in the page: the find widget looks at the whole text.)
    await waitFor('the IR in the editable snapshot', async () => (await activeEditorText()).replace(/\u00a0/g, ' ').includes('module @host'));
    await replaceInEditor('ADDR:PORT', '10.0.0.9:7000');
    await shot('edited-pass');
    await page.keyboard.press('Control+S');
    // The pass list of the re-run, the edited pass marked.
    const title = await waitFor('the pass list of the re-run', async () => {
      const t = await page.locator('.quick-input-widget .quick-input-title').first().innerText();
      return t.includes('re-run after') ? t : undefined;
    }, 60_000);
    assert.match(title, /re-run after \d+\. cross-compile-targets \(edited\), succeeded/);
    const rows = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
    assert.ok(rows.some((r) => r.includes('cross-compile-targets') && r.includes('edited')), rows.join('\n'));
    await shot('rerun-pass-list');
    await page.locator('.quick-input-widget input').fill('dispatch-executor-targets');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'dispatch-executor-targets' }).first().waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: 'dispatch-executor-targets' }).first().waitFor({ state: 'visible' });
    await waitFor('the re-run IR with the edited address', async () =>
      (await activeEditorText()).replace(/\u00a0/g, ' ').includes('executor.open("10.0.0.9:7000")'),
    );
    await shot('rerun-pass-ir');

    // An edit the verifier refuses: its error in the Problems panel, at the edited document.
    await page.locator('.tab', { hasText: 'cross-compile-targets.edit.mlir' }).first().click();
    await page.locator('.tab.active', { hasText: 'cross-compile-targets.edit.mlir' }).first().waitFor({ state: 'visible' });
    await replaceInEditor('10.0.0.9:7000', '10.0.0.9');
    await page.keyboard.press('Control+S');
    await page.keyboard.press('Control+Shift+M');
    const problems = await waitFor('the error of the edit in the Problems panel', async () => {
      const texts = await problemRows();
      return texts.some((t) => t.includes('has no port')) ? texts : undefined;
    }, 60_000);
    assert.ok(problems.some((t) => t.includes('cross-compile-targets.edit.mlir')), problems.join('\n'));
    await waitFor('a warning that the passes did not run', async () =>
      (await notifications()).find((t) => t.includes('did not run')),
    );
    await shot('rerun-error');
  });
  step('debugs a kernel: a breakpoint on a .mlir line, the editor stops there, variables, continue (the docs screenshot)', async () => {
    try {
      await debugAKernel();
    } catch (error) {
      // What the extension and lldb-dap said.
      console.log(`--- the extension's log:\n${extensionLog().split('\n').slice(-80).join('\n')}`);
      throw error;
    }
  }, 5 * STEP_TIMEOUT);
});

async function debugAKernel() {
  {
    await runCommand('View: Close All Editor Groups');
    await clearNotifications();
    // The executor-kernel debugger's tools (lldb-dap: Debian's lldb-22,
    // found where the extension looks by default).
    addRemoteSettings({
      'executorStudio.compilerPath': compilePath,
      'executorStudio.executorServerPath': executorServerPath,
    });
    // The panel (Problems, from the steps before) off: room for the editor.
    await runCommand('View: Hide Panel').catch(() => undefined);
    await openFile('cross-compile-dispatch.mlir');
    const source = fs.readFileSync(path.join(workspace, 'cross-compile-dispatch.mlir'), 'utf8').split('\n');
    // The first op of @square: `%y = memref.alloc()`, the line after its signature.
    const line = source.findIndex((l) => l.includes('func.func @square(')) + 2;
    assert.match(source[line - 1], /%y = memref\.alloc\(\)/);
    // The breakpoint, through the UI: the line, then F9 (Debug: Toggle Breakpoint).
    await goTo(line, source[line - 1].indexOf('%y') + 1);
    await page.keyboard.press('F9');
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    await editor.locator('.codicon-debug-breakpoint').first().waitFor({ state: 'visible' });
    // The extension's lens above @square starts the executor-kernel debug session.
    const lens = editor.locator('.codelens-decoration a', { hasText: 'Debug @compute::@square' }).first();
    await lens.waitFor({ state: 'visible', timeout: 60_000 });
    await shot('debug-breakpoint-and-lens');
    await lens.click();
    // Stopped on that line: the debug toolbar, the current-line decoration
    // in the editor, and the call stack's top frame at the .mlir line.
    await page.locator('.debug-toolbar').first().waitFor({ state: 'visible', timeout: 120_000 });
    // The kernel's frame by its name, @compute::@square, at its .mlir line.
    const frames = await waitFor('the call stack stopped in @compute::@square', async () => {
      const rows = (await page.locator('.debug-call-stack .monaco-list-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
      return rows.some((r) => r.startsWith('@compute::@square cross-compile-dispatch.mlir')) ? rows : undefined;
    }, 150_000);
    const top = frames.find((r) => r.startsWith('@compute::@square'));
    assert.match(top, new RegExp(`cross-compile-dispatch\\.mlir ${line}:`), frames.join('\n'));
    await editor.locator('.debug-top-stack-frame-line').first().waitFor({ state: 'visible', timeout: 30_000 });
    await editor.locator('.codicon-debug-stackframe').first().waitFor({ state: 'visible' });
    // The stopped line is the breakpoint's: the cursor's line once the editor revealed it.
    const activeLine = (await editor.locator('.line-numbers.active-line-number').first().innerText()).trim();
    assert.equal(activeLine, String(line));
    // The variables pane: the kernel's argument by its .mlir name, a memref.
    const variables = await waitFor('the variables pane to show %x', async () => {
      const rows = (await page.locator('.debug-variables .monaco-list-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
      return rows.some((r) => /^x = /.test(r)) ? rows : undefined;
    }, 30_000);
    console.log(`  call stack: ${frames.join(' | ')}`);
    console.log(`  variables: ${variables.join(' | ')}`);
    // Its value: the memref's type and first elements (KernelVariables).
    assert.ok(variables.some((r) => /x = memref<4xf64> \[1, 2, 3, 4\]/.test(r)), variables.join('\n'));
    // Opened, %x is its memref descriptor, with its data.
    await page.locator('.debug-variables .monaco-list-row', { hasText: /x\s*=\s*memref<4xf64>/ }).first().click();
    const descriptor = await waitFor("%x's descriptor in the variables pane", async () => {
      const rows = (await page.locator('.debug-variables .monaco-list-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' '));
      return rows.some((r) => /^aligned = /.test(r.trim())) && rows.some((r) => /^sizes = \[4\]/.test(r.trim())) && rows.some((r) => /^data = \[1, 2, 3, 4\]/.test(r.trim())) ? rows : undefined;
    }, 30_000);
    console.log(`  %x: ${descriptor.join(' | ')}`);
    // Opened, data is the elements.
    await page.locator('.debug-variables .monaco-list-row', { hasText: /^\s*data\s*=/ }).first().click();
    const elements = await waitFor("%x's elements in the variables pane", async () => {
      const rows = (await page.locator('.debug-variables .monaco-list-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
      return rows.some((r) => /^\[0\] = 1$/.test(r)) && rows.some((r) => /^\[3\] = 4$/.test(r)) ? rows : undefined;
    }, 30_000);
    console.log(`  data: ${elements.join(' | ')}`);
    // The panel (the debug console) off for the picture.
    await runCommand('View: Hide Panel').catch(() => undefined);
    await page.waitForTimeout(800);
    await shot('debug-stopped');
    const docs = process.env['EXECUTOR_STUDIO_DOCS_DEBUG_SCREENSHOT'];
    if (docs) {
      await shot('debug-stopped-docs', docs);
    }
    // Continue (F5 while stopped): the launch runs to its end and prints
    // its results in the "Executor Studio" output; the session ends.
    await page.keyboard.press('F5');
    await page.locator('.debug-toolbar').first().waitFor({ state: 'hidden', timeout: 90_000 });
    const output = await waitFor("the program's results in the extension's log", () => {
      const text = extensionLog();
      return /\[1,\s+4,\s+9,\s+16\]/.test(text) ? text : undefined;
    }, 60_000);
    assert.match(output, /\[0\.5,\s+2,\s+4\.5,\s+8\]/);
    await shot('debug-continued');
  }
}
