// package.json as VS Code and vsce read it: the files it names exist, its
// commands are the ones the extension and the server use, and the .vsix
// holds what the extension needs and nothing of its sources or tests.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { COMMANDS, CONFIGURATION_SECTION, LANGUAGE_ID, PREVIEW_SCHEME } from '../core/protocol';
import { extensionRoot } from './support/paths';

interface Manifest {
  main: string;
  activationEvents: string[];
  engines: { vscode: string };
  contributes: {
    languages: { id: string; extensions: string[]; configuration: string }[];
    grammars: { language: string; scopeName: string; path: string }[];
    commands: { command: string; title: string; category: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    configuration: { properties: Record<string, { type: string; default: unknown }> };
  };
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
}

const root = extensionRoot();
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;

describe('package.json', () => {
  it('contributes the mlir language for .mlir with its grammar and configuration', () => {
    const language = manifest.contributes.languages.find((l) => l.id === LANGUAGE_ID);
    assert.ok(language);
    assert.deepEqual(language.extensions, ['.mlir']);
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

  it('points at the compiled extension', () => {
    assert.ok(fs.existsSync(path.join(root, manifest.main)), `${manifest.main} is built`);
    assert.ok('vscode-languageclient' in manifest.dependencies);
  });

  it('contributes exactly the commands the extension registers, with menus on them', () => {
    const contributed = manifest.contributes.commands.map((c) => c.command).sort();
    const known = new Set<string>(contributed);
    assert.deepEqual(contributed, Object.values(COMMANDS).sort());
    const titles = Object.fromEntries(manifest.contributes.commands.map((c) => [c.command, `${c.category}: ${c.title}`]));
    assert.equal(titles[COMMANDS.showPipelinePreview], 'Executor: Show Pipeline Preview');
    assert.equal(titles[COMMANDS.restartServer], 'Executor: Restart Server');
    assert.equal(titles[COMMANDS.comparePipelinePass], 'Executor: Compare with Previous Pass');
    const compiled = fs.readFileSync(path.join(root, manifest.main), 'utf8');
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
  });

  it('contributes the settings under executorStudio', () => {
    const keys = Object.keys(manifest.contributes.configuration.properties);
    for (const key of ['serverPath', 'allowUnregisteredDialect']) {
      assert.ok(keys.includes(`${CONFIGURATION_SECTION}.${key}`), key);
    }
    assert.ok(keys.every((k) => k.startsWith(`${CONFIGURATION_SECTION}.`)));
  });

  it('has the scripts CI runs', () => {
    for (const script of ['build', 'lint', 'test', 'package']) {
      assert.ok(script in manifest.scripts, script);
    }
    assert.match(manifest.scripts['package'] ?? '', /^vsce package/);
  });
});

// @vscode/vsce needs node 20 or newer (Debian 12's own nodejs is 18).
const nodeMajor = Number(process.versions.node.split('.')[0]);
const vsceSkip = nodeMajor >= 20 ? false : `@vscode/vsce needs node >= 20, this is ${process.version}: the .vsix is not checked`;

describe('the .vsix', () => {
  it('holds the extension, its grammar and its runtime dependencies, not its sources or tests', { skip: vsceSkip }, () => {
    const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
    const files = execFileSync(process.execPath, [vsce, 'ls'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    for (const needed of ['package.json', 'README.md', 'language-configuration.json', 'syntaxes/mlir.tmLanguage.json', 'out/extension.js', 'out/core/previewService.js']) {
      assert.ok(files.includes(needed), `${needed} is packaged`);
    }
    assert.ok(files.some((f) => f.startsWith('node_modules/vscode-languageclient/lib/node/')), 'vscode-languageclient is packaged');
    for (const file of files) {
      assert.ok(!file.startsWith('src/') && !file.startsWith('out/test/') && !file.endsWith('.ts') && !file.endsWith('.vsix'), `${file} is left out`);
      assert.ok(!/^node_modules\/(typescript|eslint|@vscode\/vsce|vscode-textmate|vscode-oniguruma)\//.test(file), `${file} (a dev dependency) is left out`);
    }
  });
});
