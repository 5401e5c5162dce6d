// package.json as VS Code and vsce read it: the files it names exist, its
// commands are the ones the extension and the server use, and the .vsix
// holds what the extension needs and nothing of its sources or tests.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { BYTECODE_SCHEME, BYTECODE_VIEW_TYPE, COMMANDS, CONFIGURATION_SECTION, LANGUAGE_ID, PREVIEW_SCHEME, SNAPSHOT_SCHEME } from '../core/protocol';
import { extensionRoot } from './support/paths';

const NODE_BUILTINS = new Set(builtinModules);

interface Manifest {
  main: string;
  activationEvents: string[];
  engines: { vscode: string };
  contributes: {
    languages: { id: string; extensions: string[]; configuration: string }[];
    grammars: { language: string; scopeName: string; path: string }[];
    customEditors: { viewType: string; displayName: string; selector: { filenamePattern: string }[]; priority: string }[];
    commands: { command: string; title: string; category: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    configuration: { properties: Record<string, { type: string; default: unknown }> };
  };
  scripts: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
}

const root = extensionRoot();
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;

describe('package.json', () => {
  it('contributes the mlir language for .mlir and .mlirbc with its grammar and configuration', () => {
    const language = manifest.contributes.languages.find((l) => l.id === LANGUAGE_ID);
    assert.ok(language);
    assert.deepEqual(language.extensions, ['.mlir', '.mlirbc']);
    const configuration = JSON.parse(fs.readFileSync(path.join(root, language.configuration), 'utf8')) as {
      comments: { lineComment: string };
    };
    assert.equal(configuration.comments.lineComment, '//');
    const grammar = manifest.contributes.grammars.find((g) => g.language === LANGUAGE_ID);
    assert.ok(grammar);
    const parsed = JSON.parse(fs.readFileSync(path.join(root, grammar.path), 'utf8')) as { scopeName: string };
    assert.equal(parsed.scopeName, grammar.scopeName);
    assert.ok(manifest.activationEvents.includes(`onLanguage:${LANGUAGE_ID}`));
  });

  it('opens .mlirbc files in the bytecode editor, which shows them as text, as vscode-mlir does', () => {
    assert.deepEqual(manifest.contributes.customEditors, [
      { viewType: BYTECODE_VIEW_TYPE, displayName: 'MLIR bytecode', selector: [{ filenamePattern: '*.mlirbc' }], priority: 'default' },
    ]);
    for (const event of [`onCustomEditor:${BYTECODE_VIEW_TYPE}`, `onFileSystem:${BYTECODE_SCHEME}`, `onFileSystem:${SNAPSHOT_SCHEME}`]) {
      assert.ok(manifest.activationEvents.includes(event), event);
    }
    const compiled = fs.readFileSync(path.join(root, 'out', 'extension.js'), 'utf8');
    assert.match(compiled, /registerCustomEditorProvider\(protocol_1\.BYTECODE_VIEW_TYPE/);
    assert.match(compiled, /registerFileSystemProvider\(protocol_1\.BYTECODE_SCHEME/);
    assert.match(compiled, /registerFileSystemProvider\(protocol_1\.SNAPSHOT_SCHEME/);
    assert.match(compiled, /\{ scheme: protocol_1\.BYTECODE_SCHEME, language: protocol_1\.LANGUAGE_ID \}/, 'the client syncs .mlirbc text documents');
  });

  it('points at the bundle, which holds vscode-languageclient', () => {
    assert.equal(manifest.main, './dist/extension.js');
    const bundle = fs.readFileSync(path.join(root, manifest.main), 'utf8');
    // esbuild inlined the client; only the editor's own module stays a require.
    const required = [...bundle.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1] ?? '');
    assert.ok(required.includes('vscode'), 'the bundle requires vscode');
    assert.deepEqual(required.filter((name) => !name.startsWith('node:') && !NODE_BUILTINS.has(name) && name !== 'vscode'), []);
    assert.match(bundle, /clientProcessId/);
    assert.equal(manifest.dependencies, undefined, 'no runtime dependencies: the bundle has them');
    assert.ok('vscode-languageclient' in manifest.devDependencies);
  });

  it('contributes exactly the commands the extension registers, with menus on them', () => {
    const contributed = manifest.contributes.commands.map((c) => c.command).sort();
    const known = new Set<string>(contributed);
    assert.deepEqual(contributed, Object.values(COMMANDS).sort());
    const titles = Object.fromEntries(manifest.contributes.commands.map((c) => [c.command, `${c.category}: ${c.title}`]));
    assert.equal(titles[COMMANDS.showPipelinePreview], 'Executor: Show Pipeline Preview');
    assert.equal(titles[COMMANDS.restartServer], 'Executor: Restart Server');
    assert.equal(titles[COMMANDS.comparePipelinePass], 'Executor: Compare with Previous Pass');
    // extension.js and the modules it registers commands from (graphView.ts).
    const compiled = ['extension.js', 'graphView.js'].map((file) => fs.readFileSync(path.join(root, 'out', file), 'utf8')).join('\n');
    for (const key of Object.keys(COMMANDS)) {
      assert.ok(compiled.includes(`registerCommand(protocol_1.COMMANDS.${key}`), `extension.js registers COMMANDS.${key}`);
    }
    for (const [menu, entries] of Object.entries(manifest.contributes.menus)) {
      for (const entry of entries) {
        assert.ok(known.has(entry.command), `${menu} names a contributed command`);
      }
    }
    const compare = manifest.contributes.menus['editor/title']?.find((e) => e.command === COMMANDS.comparePipelinePass);
    assert.equal(compare?.when, `resourceScheme == ${PREVIEW_SCHEME}`);
    const edit = manifest.contributes.menus['editor/title']?.find((e) => e.command === COMMANDS.editPipelinePass);
    assert.equal(edit?.when, `resourceScheme == ${PREVIEW_SCHEME}`);
    const rerun = manifest.contributes.menus['editor/title']?.find((e) => e.command === COMMANDS.rerunFromPass);
    assert.equal(rerun?.when, `resourceScheme == ${SNAPSHOT_SCHEME}`);
    assert.equal(titles[COMMANDS.editPipelinePass], 'Executor: Edit This Pass and Re-run the Rest');
  });

  it('contributes the settings under executorStudio', () => {
    const keys = Object.keys(manifest.contributes.configuration.properties);
    for (const key of ['serverPath', 'allowUnregisteredDialect']) {
      assert.ok(keys.includes(`${CONFIGURATION_SECTION}.${key}`), key);
    }
    assert.ok(keys.every((k) => k.startsWith(`${CONFIGURATION_SECTION}.`)));
  });

  it('has the scripts CI runs, and npm test builds first', () => {
    for (const script of ['build', 'lint', 'test', 'package']) {
      assert.ok(script in manifest.scripts, script);
    }
    assert.match(manifest.scripts['package'] ?? '', /^vsce package/);
    assert.equal(manifest.scripts['pretest'], 'npm run build');
    assert.match(manifest.scripts['build'] ?? '', /esbuild/);
  });
});

// @vscode/vsce needs node 20 or newer (Debian 12's own nodejs is 18).
const nodeMajor = Number(process.versions.node.split('.')[0]);
const vsceSkip = nodeMajor >= 20 ? false : `@vscode/vsce needs node >= 20, this is ${process.version}: the .vsix is not checked`;

describe('the .vsix', () => {
  it('holds the manifest, the README, the grammar and the bundle, nothing else', { skip: vsceSkip }, () => {
    const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
    const listing = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const files = listing
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .sort();
    assert.deepEqual(files, ['README.md', 'dist/extension.js', 'language-configuration.json', 'package.json', 'syntaxes/mlir.tmLanguage.json']);
  });
});
