// The extension's TextMate grammar, loaded the way VS Code loads it:
// vscode-textmate on the Oniguruma WebAssembly build.

import * as fs from 'node:fs';
import * as path from 'node:path';

import * as oniguruma from 'vscode-oniguruma';
import type { IGrammar, StateStack } from 'vscode-textmate';
import { INITIAL, Registry, parseRawGrammar } from 'vscode-textmate';

import { extensionRoot } from './paths';

interface GrammarContribution {
  language: string;
  scopeName: string;
  path: string;
}

export interface Token {
  line: number;
  start: number;
  text: string;
  scopes: string[];
}

export interface TokenizedText {
  lines: Token[][];
  /** The grammar's rule stack depth after the last line (1 at top level). */
  finalDepth: number;
  /** The depth after each line. */
  depths: number[];
}

let loaded: Promise<IGrammar> | undefined;

function contributedGrammar(): GrammarContribution {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionRoot(), 'package.json'), 'utf8')) as {
    contributes: { grammars: GrammarContribution[] };
  };
  const grammar = manifest.contributes.grammars.find((g) => g.language === 'mlir');
  if (grammar === undefined) {
    throw new Error('package.json contributes no grammar for mlir');
  }
  return grammar;
}

async function load(): Promise<IGrammar> {
  const wasmPath = require.resolve('vscode-oniguruma/release/onig.wasm');
  const wasm = fs.readFileSync(wasmPath);
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const contribution = contributedGrammar();
  const grammarPath = path.join(extensionRoot(), contribution.path);
  const registry = new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text: string) => new oniguruma.OnigString(text),
    }),
    loadGrammar: (scopeName: string) =>
      Promise.resolve(
        scopeName === contribution.scopeName
          ? parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath)
          : null,
      ),
  });
  const grammar = await registry.loadGrammar(contribution.scopeName);
  if (grammar === null) {
    throw new Error(`cannot load ${grammarPath}`);
  }
  return grammar;
}

export function loadGrammar(): Promise<IGrammar> {
  loaded ??= load();
  return loaded;
}

export function tokenize(grammar: IGrammar, text: string): TokenizedText {
  const lines: Token[][] = [];
  const depths: number[] = [];
  let state: StateStack = INITIAL;
  text.split('\n').forEach((lineText, line) => {
    const result = grammar.tokenizeLine(lineText, state);
    lines.push(
      result.tokens.map((token) => ({
        line,
        start: token.startIndex,
        text: lineText.slice(token.startIndex, token.endIndex),
        scopes: token.scopes,
      })),
    );
    state = result.ruleStack;
    depths.push(state.depth);
  });
  return { lines, finalDepth: state.depth, depths };
}

/** The tokens whose text is `text` (exactly), in order. */
export function tokensOf(tokenized: TokenizedText, text: string): Token[] {
  return tokenized.lines.flat().filter((token) => token.text === text);
}

/** Whether a token carries a scope that starts with `prefix`. */
export function hasScope(token: Token, prefix: string): boolean {
  return token.scopes.some((scope) => scope === prefix || scope.startsWith(`${prefix}.`));
}
