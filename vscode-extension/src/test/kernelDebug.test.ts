// The executor-kernel debugger: its configuration, where its tools are,
// the "Debug" lenses, and (with executor-compile, executor-server and
// lldb-dap on this machine) a debug session as the extension runs it:
// the program compiled with -g and run against a local executor-server
// --debug-wait, and lldb-dap attached with the configuration the extension
// resolves, stopping in the kernel at its .mlir line.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';

import {
  DEBUG_KERNEL_COMMAND,
  DEBUG_TYPE,
  JIT_LOADER_COMMAND,
  SIGSTOP_COMMAND,
  type KernelDebugRequest,
  type LensLike,
  addressMap,
  attachConfiguration,
  compileArguments,
  dispatchAddress,
  findWaitingSession,
  lensDebugConfiguration,
  parseKernelDebugConfiguration,
  parseListening,
  splitKernel,
  withDebugLenses,
} from '../core/kernelDebug';
import { LocalExecutor, prepareKernelDebug } from '../core/kernelDebugRun';
import { type DapMessage, DapFramer, StopFocus, frame, nameKernelFrames } from '../core/dapProxy';
import { COMMANDS } from '../core/protocol';
import { EXECUTOR_COMPILE, EXECUTOR_SERVER, LLDB_DAP, resolveToolPath } from '../core/serverPath';
import { DapClient } from './support/dap';
import { extensionRoot, locateServer, samplePath, samplesSkip } from './support/paths';

const SAMPLE_TEXT = `module @host {
  func.func @main() { return }
  module @compute attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    func.func @square(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
  }
  module @local attributes {catalyst.target = {}} {
    func.func @sum(%x: memref<4xf64>) -> memref<1xf64> {
      %y = memref.alloc() : memref<1xf64>
      return %y : memref<1xf64>
    }
  }
}
`;

function request(overrides: Partial<KernelDebugRequest> = {}): KernelDebugRequest {
  return {
    name: 'Debug @compute::@square',
    program: '/w/prog.mlir',
    kernel: '@compute::@square',
    executor: '',
    executorLog: '',
    optimization: '-O0',
    stopAtKernel: true,
    args: [],
    ...overrides,
  };
}

describe('executor-kernel configurations', () => {
  it('reads a launch of a kernel, with -O0, a local executor and a stop at the kernel by default', () => {
    assert.deepEqual(
      parseKernelDebugConfiguration({ type: DEBUG_TYPE, request: 'launch', name: 'Debug @compute::@square', program: 'prog.mlir', kernel: '@compute::@square' }, '/w'),
      request(),
    );
    const parsed = parseKernelDebugConfiguration(
      { type: DEBUG_TYPE, request: 'launch', program: '/w/prog.mlir', kernel: '@compute::@square', executor: ' 10.0.0.2:7000 ', executorLog: 'server.log', optimization: '-O2', stopAtKernel: false, args: ['a'], sourceMap: [['/build', '/src']] },
      '/w',
    );
    assert.deepEqual(parsed, request({ executor: '10.0.0.2:7000', executorLog: '/w/server.log', optimization: '-O2', stopAtKernel: false, args: ['a'], sourceMap: [['/build', '/src']] }));
  });

  it('says what is wrong with one', () => {
    const base = { type: DEBUG_TYPE, request: 'launch', program: '/w/prog.mlir', kernel: '@compute::@square' };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...base, request: 'attach' }, /is a "launch"/],
      [{ ...base, program: '' }, /"program" is missing/],
      [{ ...base, program: '/w/prog' }, /must be a \.mlir host program/],
      [{ ...base, kernel: 'square' }, /@module::@entry/],
      [{ ...base, executor: '10.0.0.2:7000' }, /give "executorLog"/],
      [{ ...base, optimization: '-O9' }, /-O0, -O1, -O2 or -O3/],
      [{ ...base, args: [1] }, /array of strings/],
    ];
    for (const [config, message] of cases) {
      const parsed = parseKernelDebugConfiguration(config, '/w');
      assert.equal(typeof parsed, 'string', JSON.stringify(config));
      assert.match(parsed as string, message);
    }
  });

  it('compiles with -g at the chosen level', () => {
    assert.deepEqual(compileArguments(request(), '/tmp/d/prog'), ['-g', '-O0', '/w/prog.mlir', '-o', '/tmp/d/prog']);
    assert.deepEqual(splitKernel('@compute::@square'), { module: 'compute', entry: 'square' });
    assert.equal(splitKernel('@compute'), undefined);
  });

  it("maps the kernel's target's dispatch address to the executor", () => {
    assert.equal(dispatchAddress(SAMPLE_TEXT, 'compute'), 'ADDR:PORT');
    assert.equal(dispatchAddress(SAMPLE_TEXT, 'local'), undefined, 'a local target is not dispatched');
    assert.equal(dispatchAddress(SAMPLE_TEXT, 'nowhere'), undefined);
    assert.equal(addressMap('ADDR:PORT', '127.0.0.1:4000', undefined), 'ADDR:PORT=127.0.0.1:4000');
    assert.equal(addressMap('ADDR:PORT', '127.0.0.1:4000', 'B:1=c:2'), 'ADDR:PORT=127.0.0.1:4000,B:1=c:2');
  });

  it("reads the executor's listening line and the session that waits for a debugger", () => {
    assert.equal(parseListening('listening on 127.0.0.1:44377\n'), '127.0.0.1:44377');
    assert.equal(parseListening('starting\n'), undefined);
    const log =
      'executor-server: session 1 (127.0.0.1:1): waiting for a debugger before launching square: pid 30280; attach a debugger with: gdb -p 30280\n' +
      'executor-server: session 2 (127.0.0.1:2): waiting for a debugger before launching scale: pid 30300; attach a debugger with: gdb -p 30300\n';
    assert.deepEqual(findWaitingSession(log), { pid: 30280, kernel: 'square' });
    assert.deepEqual(findWaitingSession(log, log.indexOf('session 2')), { pid: 30300, kernel: 'scale' });
    assert.equal(findWaitingSession(log, log.length), undefined);
  });

  it("resolves to lldb-dap's attach, with the GDB JIT loader on", () => {
    const config = attachConfiguration(request({ sourceMap: [['/b', '/s']] }), { pid: 42, kernel: 'square' }, '/opt/bin/executor-server', [{ name: 'x', type: 'memref<4xf64>' }]);
    assert.deepEqual(config, {
      type: DEBUG_TYPE,
      request: 'attach',
      name: 'Debug @compute::@square',
      pid: 42,
      program: '/opt/bin/executor-server',
      initCommands: [JIT_LOADER_COMMAND],
      postRunCommands: [SIGSTOP_COMMAND],
      preRunCommands: ['breakpoint set --name square'],
      sourceMap: [['/b', '/s']],
      // The kernel's arguments, for the variables pane (KernelVariables).
      executorKernel: { kernel: '@compute::@square', program: '/w/prog.mlir', pid: 42, arguments: [{ name: 'x', type: 'memref<4xf64>' }] },
    });
    assert.equal(JIT_LOADER_COMMAND, 'settings set plugin.jit-loader.gdb.enable on');
    assert.equal(SIGSTOP_COMMAND, 'process handle SIGSTOP --stop false --notify false --pass false');
    const plain = attachConfiguration(request({ stopAtKernel: false }), { pid: 42, kernel: 'square' }, undefined);
    assert.equal(plain['preRunCommands'], undefined);
    assert.equal(plain['program'], undefined);
  });

  it("puts a Debug lens beside each of the server's Launch lenses", () => {
    const argument = { uri: 'file:///w/prog.mlir', kernel: '@compute::@square' };
    const lenses: LensLike[] = [
      { range: 1, command: { title: 'Preview', command: COMMANDS.showPipelinePreview, arguments: [{ uri: 'file:///w/prog.mlir' }] } },
      { range: 2, command: { title: 'Launch @compute::@square (debug build)', command: COMMANDS.launchKernel, arguments: [argument] } },
    ];
    const result = withDebugLenses(lenses, COMMANDS.launchKernel, (lens, command) => ({ range: lens.range, command }));
    assert.deepEqual(result.map((l) => [l.range, l.command?.title, l.command?.command]), [
      [1, 'Preview', COMMANDS.showPipelinePreview],
      [2, 'Launch @compute::@square (debug build)', COMMANDS.launchKernel],
      [2, 'Debug @compute::@square', DEBUG_KERNEL_COMMAND],
    ]);
    assert.deepEqual(result[2]?.command?.arguments, [argument]);
    assert.deepEqual(lensDebugConfiguration('/w/prog.mlir', '@compute::@square'), {
      type: DEBUG_TYPE, request: 'launch', name: 'Debug @compute::@square', program: '/w/prog.mlir', kernel: '@compute::@square', executor: '',
    });
  });
});

// A stop as lldb-dap 22 reports it in a session (its own PID namespace):
// one event a thread, the first (the main thread's) focused.
function sigstop(seq: number, threadId: number, focus = false): DapMessage {
  return {
    seq, type: 'event', event: 'stopped',
    body: { allThreadsStopped: true, description: 'signal SIGSTOP', preserveFocusHint: !focus, reason: 'exception', threadId, ...(focus ? { threadCausedFocus: true } : {}) },
  };
}
const breakpointStop: DapMessage = {
  seq: 35, type: 'event', event: 'stopped',
  body: { allThreadsStopped: true, description: 'breakpoint 1.3', hitBreakpointIds: [1], preserveFocusHint: true, reason: 'breakpoint', threadId: 662 },
};

describe('lldb-dap, as the extension passes it on', () => {
  it("focuses the thread that stopped at the breakpoint, not the main thread's SIGSTOP", () => {
    const focus = new StopFocus();
    const sent = [sigstop(32, 659, true), sigstop(33, 660), breakpointStop, sigstop(36, 663), { seq: 37, type: 'event', event: 'output', body: { output: 'x' } }, sigstop(38, 664)]
      .flatMap((m) => focus.filter(m));
    assert.deepEqual(sent.map((m) => [m.event, m.body?.['threadId'] ?? null, m.body?.['preserveFocusHint'] ?? null]), [
      ['stopped', 662, false],
      ['output', null, null],
    ]);
    assert.equal(sent[0]?.body?.['threadCausedFocus'], true);
    assert.equal(focus.holding(), false);
    // The next stop (after continued) is focused again.
    const next = [{ seq: 40, type: 'event', event: 'continued', body: { threadId: 662 } }, sigstop(41, 659, true), { ...breakpointStop, seq: 42 }].flatMap((m) => focus.filter(m));
    assert.deepEqual(next.map((m) => m.event), ['continued', 'stopped']);
  });

  it('lets a stop of SIGSTOPs only (a pause) through as it came', () => {
    const focus = new StopFocus();
    assert.deepEqual(focus.filter(sigstop(1, 659, true)), []);
    assert.deepEqual(focus.filter(sigstop(2, 660)), []);
    assert.ok(focus.holding());
    assert.deepEqual(focus.flush().map((m) => m.body?.['threadId']), [659, 660]);
    const response = { seq: 3, type: 'response', command: 'threads' };
    assert.deepEqual(focus.filter(sigstop(4, 661)), [], 'the same stop');
    assert.deepEqual(focus.filter(response), [response]);
  });

  it("names the kernel's frame @module::@entry, at its .mlir line only", () => {
    const trace: DapMessage = {
      seq: 9,
      type: 'response',
      command: 'stackTrace',
      body: {
        stackFrames: [
          { id: 1, name: 'square', line: 69, source: { path: '/w/prog.mlir' } },
          { id: 2, name: '_mlir_ciface_square', line: 68, source: { path: '/w/prog.mlir' } },
          { id: 3, name: 'square', line: 4, source: { path: '/w/other.c' } },
        ],
        totalFrames: 3,
      },
    };
    const named = nameKernelFrames(trace, '@compute::@square');
    assert.deepEqual((named.body?.['stackFrames'] as { name: string }[]).map((f) => f.name), ['@compute::@square', '_mlir_ciface_square', 'square']);
    assert.equal(named.body?.['totalFrames'], 3);
    // Without a kernel, and for other messages: as they came.
    assert.equal(nameKernelFrames(trace, ''), trace);
    const threads: DapMessage = { seq: 10, type: 'response', command: 'threads', body: { threads: [] } };
    assert.equal(nameKernelFrames(threads, '@compute::@square'), threads);
  });

  it('frames messages as Content-Length JSON, across chunks', () => {
    const framer = new DapFramer();
    const bytes = Buffer.from(frame({ seq: 1, type: 'event', event: 'initialized' }) + frame({ seq: 2, type: 'event', event: 'output', body: { output: 'é' } }));
    assert.deepEqual(framer.push(bytes.subarray(0, 10)), []);
    assert.deepEqual(framer.push(bytes.subarray(10)).map((m) => m.seq), [1, 2]);
  });
});

describe("the debugger's tools", () => {
  const executables = (set: string[]) => (file: string) => set.includes(file);
  it('finds lldb-dap on the PATH, then in LLVM 22, or where executorStudio.lldbDapPath says', () => {
    const input = { configured: '', workspaceFolders: ['/w'], envPath: '/usr/local/bin:/usr/bin', homeDir: '/home/u' };
    assert.deepEqual(resolveToolPath(LLDB_DAP, { ...input, isExecutable: executables(['/usr/bin/lldb-dap-22', '/usr/lib/llvm-22/bin/lldb-dap']) }), {
      found: true, path: '/usr/bin/lldb-dap-22', source: 'PATH',
    });
    assert.deepEqual(resolveToolPath(LLDB_DAP, { ...input, envPath: '/bin', isExecutable: executables(['/usr/lib/llvm-22/bin/lldb-dap']) }), {
      found: true, path: '/usr/lib/llvm-22/bin/lldb-dap', source: 'PATH',
    });
    assert.deepEqual(resolveToolPath(LLDB_DAP, { ...input, configured: '~/llvm/bin/lldb-dap', isExecutable: executables(['/home/u/llvm/bin/lldb-dap']) }), {
      found: true, path: '/home/u/llvm/bin/lldb-dap', source: 'setting',
    });
    const missing = resolveToolPath(LLDB_DAP, { ...input, isExecutable: () => false });
    assert.equal(missing.found, false);
    assert.match(missing.message, /lldb-dap was found neither on the PATH nor at \/usr\/lib\/llvm-22\/bin\/lldb-dap.*apt-get install lldb-22.*executorStudio\.lldbDapPath/);
    const wrong = resolveToolPath(LLDB_DAP, { ...input, configured: '/nope/lldb-dap', isExecutable: () => false });
    assert.match(!wrong.found ? wrong.message : '', /executorStudio\.lldbDapPath is "\/nope\/lldb-dap"/);
  });

  it("finds executor-compile and executor-server in the workspace's build, then on the PATH", () => {
    const input = { configured: '', workspaceFolders: ['/w/repo/sub'], envPath: '/usr/bin', homeDir: '/home/u' };
    assert.deepEqual(resolveToolPath(EXECUTOR_COMPILE, { ...input, isExecutable: executables(['/w/repo/build/bin/executor-compile', '/usr/bin/executor-compile']) }), {
      found: true, path: '/w/repo/build/bin/executor-compile', source: 'build',
    });
    assert.deepEqual(resolveToolPath(EXECUTOR_SERVER, { ...input, isExecutable: executables(['/usr/bin/executor-server']) }), {
      found: true, path: '/usr/bin/executor-server', source: 'PATH',
    });
    assert.deepEqual(resolveToolPath(EXECUTOR_SERVER, { ...input, configured: 'tools/executor-server', workspaceFolders: ['/w'], isExecutable: executables(['/w/tools/executor-server']) }), {
      found: true, path: '/w/tools/executor-server', source: 'setting',
    });
    const missing = resolveToolPath(EXECUTOR_COMPILE, { ...input, isExecutable: () => false });
    assert.match(!missing.found ? missing.message : '', /executor-compile was found neither in build\/bin under the workspace nor on the PATH.*executorStudio\.compilerPath/);
  });

  it('has a setting for each, in package.json', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(extensionRoot(), 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, unknown> }; debuggers: { type: string; languages: string[] }[]; breakpoints: { language: string }[] };
      activationEvents: string[];
    };
    for (const tool of [LLDB_DAP, EXECUTOR_COMPILE, EXECUTOR_SERVER]) {
      assert.ok(`executorStudio.${tool.setting}` in manifest.contributes.configuration.properties, tool.setting);
    }
    const debuggerEntry = manifest.contributes.debuggers.find((d) => d.type === DEBUG_TYPE);
    assert.ok(debuggerEntry, 'contributes the executor-kernel debugger');
    assert.deepEqual(debuggerEntry.languages, ['mlir']);
    assert.deepEqual(manifest.contributes.breakpoints, [{ language: 'mlir' }]);
    assert.ok(manifest.activationEvents.includes(`onDebugResolve:${DEBUG_TYPE}`));
    const compiled = fs.readFileSync(path.join(extensionRoot(), 'out', 'kernelDebugger.js'), 'utf8');
    assert.match(compiled, /registerDebugConfigurationProvider\(kernelDebug_1\.DEBUG_TYPE/);
    assert.match(compiled, /registerDebugAdapterDescriptorFactory\(kernelDebug_1\.DEBUG_TYPE/);
  });
});

// The real thing: the tools next to the language server under test (its
// build/bin), and lldb-dap where the extension finds it.
function locateTools(): { compiler: string; server: string; lldbDap: string } | string {
  const lsp = locateServer();
  if ('skip' in lsp) {
    return lsp.skip;
  }
  const bin = path.dirname(lsp.path);
  const compiler = path.join(bin, 'executor-compile');
  const server = path.join(bin, 'executor-server');
  for (const tool of [compiler, server]) {
    if (!fs.existsSync(tool)) {
      return `${tool} is not built: the debug session test is skipped`;
    }
  }
  const lldbDap = resolveToolPath(LLDB_DAP, { configured: process.env['EXECUTOR_LLDB_DAP'] ?? '', workspaceFolders: [], envPath: process.env['PATH'] ?? '' });
  if (!lldbDap.found) {
    return `${lldbDap.message}: the debug session test is skipped`;
  }
  return { compiler, server, lldbDap: lldbDap.path };
}

const tools = locateTools();
const sessionSkip = typeof tools === 'string' ? tools : samplesSkip;
if (sessionSkip !== false) {
  console.log(sessionSkip);
}

interface Variable {
  name: string;
  value: string;
  type?: string;
  variablesReference: number;
  evaluateName?: string;
}

/** The variables of `reference`, by name. */
async function variablesOf(dap: DapClient, reference: number): Promise<Map<string, Variable>> {
  const body = await dap.request('variables', { variablesReference: reference });
  return new Map((body['variables'] as Variable[]).map((v) => [v.name, v]));
}

/** The variables pane of frame `frameId`: its Locals scope's variables, by name. */
async function localsOf(dap: DapClient, frameId: number): Promise<Map<string, Variable>> {
  const scopes = (await dap.request('scopes', { frameId }))['scopes'] as { name: string; variablesReference: number }[];
  const locals = scopes.find((scope) => scope.name === 'Locals');
  assert.ok(locals, JSON.stringify(scopes));
  return variablesOf(dap, locals.variablesReference);
}

interface StoppedSession {
  dap: DapClient;
  prepared: Awaited<ReturnType<typeof prepareKernelDebug>>;
  executor: () => LocalExecutor | undefined;
  thread: unknown;
  frames: { id: number; name: string; line: number; source?: { path?: string } }[];
}

/**
 * `program` compiled with -g (at `optimization`) and run against a local
 * executor-server --debug-wait, lldb-dap attached through the extension's
 * channel with the configuration the extension resolves, as VS Code
 * drives it, stopped in `kernel`; its stack.
 */
async function debugUntilStopped(
  found: { compiler: string; server: string; lldbDap: string },
  program: string,
  kernel: string,
  cleanups: (() => void)[],
  optimization?: string,
): Promise<StoppedSession> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'executor-kernel-debug-'));
  cleanups.push(() => {
    fs.rmSync(work, { recursive: true, force: true });
  });
  let executor: LocalExecutor | undefined;
  const parsed = parseKernelDebugConfiguration({ ...lensDebugConfiguration(program, kernel), ...(optimization ? { optimization } : {}) }, work);
  assert.equal(typeof parsed, 'object');
  const prepared = await prepareKernelDebug(parsed as KernelDebugRequest, {
    compiler: found.compiler,
    localExecutor: async () => {
      executor = await LocalExecutor.start(found.server);
      cleanups.push(() => {
        executor?.stop();
      });
      return executor;
    },
  }, work);
  cleanups.push(() => {
    prepared.run.kill();
  });
  assert.equal(prepared.session.kernel, splitKernel(kernel)?.entry);
  assert.equal(prepared.configuration['pid'], prepared.session.pid);
  assert.equal(prepared.configuration['request'], 'attach');
  assert.equal(prepared.configuration['program'], found.server, 'the session is executor-server');

  // As VS Code drives the extension's adapter (lldb-dap through
  // LldbDapChannel): initialize, the resolved attach, the
  // editor's breakpoints (none: the kernel's name stops it), configurationDone.
  const dap = new DapClient(found.lldbDap, true);
  cleanups.push(() => {
    dap.kill();
  });
  await dap.request('initialize', { clientID: 'vscode', adapterID: DEBUG_TYPE, linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
  const attach = dap.send('attach', prepared.configuration);
  await dap.event('initialized');
  await dap.request('configurationDone');
  const attached = await dap.waitFor((m) => m.type === 'response' && m.request_seq === attach, 'the response to attach');
  assert.ok(attached.success, attached.message);
  const stopped = await dap.waitFor((m) => m.event === 'stopped' && m.body?.['reason'] === 'breakpoint', 'a stop in the kernel');
  const thread = stopped.body?.['threadId'];
  // Through the extension's channel, this stop is one stopped event: the
  // kernel's thread, focused (lldb-dap sends one a thread, and focuses the
  // main thread's "signal SIGSTOP").
  await new Promise((resolve) => setTimeout(resolve, 500));
  const shown = dap.received.filter((m) => m.event === 'stopped');
  assert.equal(shown.length, 1, JSON.stringify(shown));
  assert.equal(shown[0]?.body?.['threadId'], thread);
  assert.equal(shown[0]?.body?.['preserveFocusHint'], false);
  const trace = await dap.request('stackTrace', { threadId: thread, startFrame: 0, levels: 3 });
  const frames = trace['stackFrames'] as StoppedSession['frames'];
  return { dap, prepared, executor: () => executor, thread, frames };
}

describe('a debug session of @compute::@square', () => {
  const cleanups: (() => void)[] = [];
  after(() => {
    for (const cleanup of cleanups.reverse()) {
      cleanup();
    }
  });

  it('compiles with -g, runs against a local executor-server --debug-wait, and lldb-dap attached by the resolved configuration stops in the kernel', { skip: sessionSkip, timeout: 240000 }, async () => {
    if (typeof tools === 'string') {
      return;
    }
    const program = samplePath('cross-compile-dispatch.mlir');
    const { dap, prepared, executor, thread, frames } = await debugUntilStopped(tools, program, '@compute::@square', cleanups);
    const top = frames[0];
    assert.ok(top);
    // The kernel's frame by the kernel's name (nameKernelFrames), its wrappers by theirs.
    assert.equal(top.name, '@compute::@square');
    assert.match(frames[1]?.name ?? '', /^_mlir_ciface_square$/);
    assert.equal(top.source?.path, program);
    const text = fs.readFileSync(program, 'utf8').split('\n');
    assert.match(text[top.line - 1] ?? '', /memref\.alloc\(\)|func\.func @square/, `line ${top.line} is in @square`);
    const value = await dap.request('evaluate', { expression: 'x.aligned[3]', frameId: top.id, context: 'watch' });
    assert.equal(value['result'], '4');

    // The variables pane: x by its .mlir name, its descriptor with its
    // data (KernelVariables), the pieces with their MLIR types.
    const locals = await localsOf(dap, top.id);
    const x = locals.get('x');
    assert.ok(x, JSON.stringify([...locals.keys()]));
    assert.equal(x.type, 'memref<4xf64>');
    assert.equal(x.value, 'memref<4xf64> [1, 2, 3, 4]');
    const descriptor = await variablesOf(dap, x.variablesReference);
    assert.deepEqual([...descriptor.keys()], ['allocated', 'aligned', 'offset', 'sizes', 'strides', 'data']);
    assert.equal(descriptor.get('aligned')?.type, 'f64 *');
    assert.equal(descriptor.get('offset')?.type, 'index');
    assert.equal(descriptor.get('sizes')?.value, '[4]');
    assert.equal(descriptor.get('strides')?.value, '[1]');
    const data = descriptor.get('data');
    assert.ok(data);
    assert.equal(data.value, '[1, 2, 3, 4]');
    assert.equal(data.type, 'f64[4]');
    const elements = await variablesOf(dap, data.variablesReference);
    assert.deepEqual([...elements.values()].map((e) => [e.name, e.value, e.type, e.evaluateName]), [
      ['[0]', '1', 'f64', 'x.aligned[0]'],
      ['[1]', '2', 'f64', 'x.aligned[1]'],
      ['[2]', '3', 'f64', 'x.aligned[2]'],
      ['[3]', '4', 'f64', 'x.aligned[3]'],
    ]);

    // next: the following .mlir line, still in the kernel.
    await dap.request('next', { threadId: thread });
    const resumed = await dap.event('continued');
    const stepped = await dap.waitFor((m) => m.event === 'stopped' && m.body?.['threadId'] === thread, 'the stop after next', 120000, resumed.seq);
    assert.equal(stepped.body?.['reason'], 'step');
    const afterStep = (await dap.request('stackTrace', { threadId: thread, startFrame: 0, levels: 1 }))['stackFrames'] as { id: number; name: string; line: number }[];
    const next = afterStep[0];
    assert.ok(next);
    assert.equal(next.name, '@compute::@square');
    assert.equal(next.line, top.line + 1);
    // The pane of the new stop reads the data again.
    assert.equal((await localsOf(dap, next.id)).get('x')?.value, 'memref<4xf64> [1, 2, 3, 4]');

    // Ending the debug session detaches: the launch finishes, the executor keeps serving.
    await dap.request('continue', { threadId: thread });
    await dap.request('disconnect', { terminateDebuggee: false });
    assert.equal(await prepared.run.exited, 0, prepared.run.output);
    assert.match(prepared.run.output, /\[1, {2}4, {2}9, {2}16\]/);
    assert.ok(executor()?.running(), 'the executor still serves');
  });
});

/** tests/e2e/Inputs/scalar-dispatch.mlir: @remote::@axpy(%a: f64, %n: i32, %x: memref<8xf64>). */
const scalarProgram = path.join(path.dirname(extensionRoot()), 'tests', 'e2e', 'Inputs', 'scalar-dispatch.mlir');

describe('a debug session of a kernel with scalar arguments', () => {
  const cleanups: (() => void)[] = [];
  after(() => {
    for (const cleanup of cleanups.reverse()) {
      cleanup();
    }
  });

  it('shows each argument by its .mlir name with its MLIR type, and a memref<8xf64> with its data', { skip: sessionSkip !== false ? sessionSkip : !fs.existsSync(scalarProgram) && `no ${scalarProgram}`, timeout: 240000 }, async () => {
    if (typeof tools === 'string') {
      return;
    }
    const { dap, prepared, thread, frames } = await debugUntilStopped(tools, scalarProgram, '@remote::@axpy', cleanups);
    const top = frames[0];
    assert.equal(top?.name, '@remote::@axpy');
    const locals = await localsOf(dap, top.id);
    assert.deepEqual([...locals.values()].map((v) => [v.name, v.type, v.value]), [
      ['a', 'f64', '2.5'],
      ['n', 'i32', '-3'],
      ['x', 'memref<8xf64>', 'memref<8xf64> [1, 2, 3, 4, 5, 6, 7, 8]'],
    ]);
    await dap.request('continue', { threadId: thread });
    await dap.request('disconnect', { terminateDebuggee: false });
    assert.equal(await prepared.run.exited, 0, prepared.run.output);
  });
});
