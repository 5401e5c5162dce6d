// The TextMate grammar, run by vscode-textmate on vscode-oniguruma as VS
// Code runs it, on the repository's samples and on IR the pipeline prints.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { before, describe, it } from 'node:test';

import type { IGrammar } from 'vscode-textmate';

import type { Token, TokenizedText } from './support/grammar';
import { hasScope, loadGrammar, tokenize, tokensOf } from './support/grammar';
import { sampleNames, samplePath, samplesSkip } from './support/paths';

const EXECUTOR_OP = 'keyword.control.op.executor.mlir';
const CATALYST_OP = 'keyword.control.op.catalyst.mlir';
const EXECUTOR_TYPE = 'entity.name.type.executor.mlir';
const CATALYST_ATTRIBUTE = 'entity.other.attribute-name.catalyst.mlir';
const GENERIC_OP = 'support.function.op.mlir';

let grammar: IGrammar;

before(async () => {
  grammar = await loadGrammar();
});

function tokenAt(tokenized: TokenizedText, line: number, column: number): Token | undefined {
  return tokenized.lines[line]?.find((token) => token.start <= column && column < token.start + token.text.length);
}

function assertAll(tokens: Token[], scope: string, what: string, atLeast = 1): void {
  assert.ok(tokens.length >= atLeast, `${what}: expected at least ${atLeast} token(s), got ${tokens.length}`);
  for (const token of tokens) {
    assert.ok(hasScope(token, scope), `${what} at ${token.line + 1}:${token.start + 1} has ${token.scopes.join(' ')}, not ${scope}`);
  }
}

/** The tokens of `text` outside comments and strings. */
function codeTokens(tokenized: TokenizedText, text: string): Token[] {
  return tokensOf(tokenized, text).filter((t) => !hasScope(t, 'comment') && !hasScope(t, 'string'));
}

if (samplesSkip !== false) {
  console.log(samplesSkip);
}
const skip = samplesSkip;

describe('grammar on the samples', () => {
  it('has samples to read', { skip }, () => {
    assert.deepEqual(sampleNames().filter((n) => ['all-ops.mlir', 'cross-compile-dispatch.mlir', 'runtime-call.mlir'].includes(n)).length, 3);
  });

  for (const name of sampleNames()) {
    it(`${name}: every line ends at the top level, comments are comments, executor and catalyst names are scoped`, () => {
      const text = fs.readFileSync(samplePath(name), 'utf8');
      const tokenized = tokenize(grammar, text);
      tokenized.depths.forEach((depth, line) => {
        assert.equal(depth, 1, `${name}:${line + 1} leaves the grammar inside a rule`);
      });
      text.split('\n').forEach((lineText, line) => {
        const comment = lineText.indexOf('//');
        if (lineText.trimStart().startsWith('//')) {
          for (const token of tokenized.lines[line] ?? []) {
            if (token.start >= comment) {
              assert.ok(hasScope(token, 'comment.line.double-slash.mlir'), `${name}:${line + 1} "${token.text}" is not comment`);
            }
          }
          return;
        }
        for (const match of lineText.matchAll(/(?<![\w"/!@%-])(executor|catalyst)\.[a-z_]+/g)) {
          const dialect = match[1] ?? '';
          const token = tokenAt(tokenized, line, match.index + dialect.length + 1);
          assert.ok(token, `${name}:${line + 1}: no token at ${match[0]}`);
          if (hasScope(token, 'string') || hasScope(token, 'comment')) {
            continue;
          }
          assert.ok(
            token.scopes.some((scope) => scope.endsWith(`.${dialect}.mlir`)),
            `${name}:${line + 1}: "${match[0]}" has ${token.scopes.join(' ')}`,
          );
        }
      });
    });
  }

  it('all-ops.mlir: every executor op, both executor types, attributes and generic MLIR', { skip }, () => {
    const tokenized = tokenize(grammar, fs.readFileSync(samplePath('all-ops.mlir'), 'utf8'));
    for (const op of ['open', 'send_binary', 'launch_async', 'launch', 'call', 'await', 'close']) {
      assertAll(codeTokens(tokenized, op), EXECUTOR_OP, `executor.${op}`);
    }
    assertAll(codeTokens(tokenized, 'session'), EXECUTOR_TYPE, '!executor.session', 6);
    assertAll(codeTokens(tokenized, 'token'), EXECUTOR_TYPE, '!executor.token', 2);
    assertAll(codeTokens(tokenized, 'num_input_args'), 'entity.other.attribute-name.mlir', 'num_input_args');
    assertAll(codeTokens(tokenized, 'llvm.emit_c_interface'), 'entity.other.attribute-name.mlir', 'llvm.emit_c_interface');
    assertAll(tokensOf(tokenized, 'ADDR:PORT'), 'string.quoted.double.mlir', '"ADDR:PORT"');
    assertAll(codeTokens(tokenized, 'printMemrefF64'), 'entity.name.function.symbol.mlir', '@printMemrefF64', 3);
    assertAll(codeTokens(tokenized, 'squares'), 'variable.other.ssa.mlir', '%squares', 3);
    for (const op of ['arith.constant', 'memref.alloc', 'scf.for', 'func.func', 'func.call', 'memref.store', 'return', 'module']) {
      assertAll(codeTokens(tokenized, op), GENERIC_OP, op);
    }
    assertAll(codeTokens(tokenized, 'f64'), 'storage.type.builtin.mlir', 'f64', 10);
    assertAll(codeTokens(tokenized, 'index'), 'storage.type.builtin.mlir', 'index', 4);
    assertAll(codeTokens(tokenized, 'memref'), 'storage.type.builtin.mlir', 'memref', 10);
    assertAll(codeTokens(tokenized, '1.000000e+00'), 'constant.numeric.float.mlir', 'a float');
    assertAll(codeTokens(tokenized, 'to'), 'keyword.other.mlir', 'to', 2);
    assertAll(codeTokens(tokenized, '->'), 'keyword.operator.arrow.mlir', '->', 3);
  });

  it('cross-compile-dispatch.mlir: launch_kernel, catalyst.target and catalyst.dispatch, nested symbols', { skip }, () => {
    const tokenized = tokenize(grammar, fs.readFileSync(samplePath('cross-compile-dispatch.mlir'), 'utf8'));
    assertAll(codeTokens(tokenized, 'launch_kernel'), CATALYST_OP, 'catalyst.launch_kernel', 3);
    assertAll(codeTokens(tokenized, 'target'), CATALYST_ATTRIBUTE, 'catalyst.target', 2);
    assertAll(codeTokens(tokenized, 'dispatch'), CATALYST_ATTRIBUTE, 'catalyst.dispatch', 1);
    assertAll(codeTokens(tokenized, 'address'), 'entity.other.attribute-name.mlir', 'address');
    assertAll(codeTokens(tokenized, '::'), 'punctuation.separator.namespace.mlir', '::', 3);
    for (const symbol of ['compute', 'square', 'scale', 'local', 'sum']) {
      assert.ok(
        codeTokens(tokenized, symbol).some((t) => hasScope(t, 'entity.name.function.symbol.mlir')),
        `@${symbol} is a symbol`,
      );
    }
    assertAll(codeTokens(tokenized, 'bb0'), 'entity.name.label.mlir', '^bb0');
    assertAll(codeTokens(tokenized, 'affine_map'), 'support.type.attribute.mlir', 'affine_map', 2);
    assertAll(codeTokens(tokenized, 'linalg.generic'), GENERIC_OP, 'linalg.generic');
    assertAll(codeTokens(tokenized, 'ins'), 'keyword.other.mlir', 'ins', 2);
  });

  it('runtime-call.mlir: runtime_call and its attributes, tensors', { skip }, () => {
    const tokenized = tokenize(grammar, fs.readFileSync(samplePath('runtime-call.mlir'), 'utf8'));
    assertAll(codeTokens(tokenized, 'runtime_call'), CATALYST_OP, 'catalyst.runtime_call');
    for (const name of ['c_params', 'c_strings']) {
      assertAll(codeTokens(tokenized, name), 'entity.other.attribute-name.mlir', name);
    }
    assertAll(codeTokens(tokenized, 'tensor'), 'storage.type.builtin.mlir', 'tensor', 4);
    assertAll(codeTokens(tokenized, 'i64'), 'storage.type.builtin.mlir', 'i64', 3);
    assertAll(codeTokens(tokenized, 'f32'), 'storage.type.builtin.mlir', 'f32', 2);
  });
});

describe('grammar on IR the pipeline prints', () => {
  it('highlights the generic form, the runtime calls and the catalyst attributes the passes add', () => {
    const text = [
      '#map = affine_map<(d0) -> (d0)>',
      'module attributes {catalyst.object_files = ["/ws/local/local.o"]} {',
      '  llvm.func @__catalyst__executor__launch(!llvm.ptr, i64) -> i32',
      '  %0 = "executor.launch"(%s, %x) <{entry = "square"}> : (!executor.session, memref<4xf64>) -> memref<4xf64>',
      '  %1:2 = "catalyst.launch_kernel"() {callee = @t::@e, catalyst.nonblocking} : () -> (i32, i32)',
      '  module @t attributes {catalyst.target = {triple = "x86_64-unknown-linux-gnu"}, catalyst.object_file = "/ws/t/t.o"} {',
      '  }',
      '  %2 = llvm.call @__catalyst__executor__open(%a) : (!llvm.ptr) -> !executor.token',
      '  %3 = "test.op"() {value = dense<[1, 2]> : tensor<2x?xi32>} : () -> tensor<?x4xf32>',
      '}',
      '// -----',
      'func.func @g() { return }',
    ].join('\n');
    const tokenized = tokenize(grammar, text);
    assert.equal(tokenized.finalDepth, 1);
    assertAll(tokensOf(tokenized, 'map'), 'constant.other.attribute.mlir', '#map');
    assertAll(tokensOf(tokenized, 'object_files'), CATALYST_ATTRIBUTE, 'catalyst.object_files');
    assertAll(tokensOf(tokenized, 'object_file'), CATALYST_ATTRIBUTE, 'catalyst.object_file');
    assertAll(tokensOf(tokenized, 'nonblocking'), CATALYST_ATTRIBUTE, 'catalyst.nonblocking');
    assertAll(tokensOf(tokenized, '__catalyst__executor__launch'), 'entity.name.function.symbol.runtime.executor.mlir', 'runtime symbol');
    assertAll(tokensOf(tokenized, '__catalyst__executor__open'), 'entity.name.function.symbol.runtime.executor.mlir', 'runtime symbol');
    assertAll(tokensOf(tokenized, 'executor.launch'), EXECUTOR_OP, '"executor.launch"');
    assertAll(tokensOf(tokenized, 'catalyst.launch_kernel'), CATALYST_OP, '"catalyst.launch_kernel"');
    assertAll(tokensOf(tokenized, 'test.op'), GENERIC_OP, '"test.op"');
    assertAll(tokensOf(tokenized, 'llvm.func'), GENERIC_OP, 'llvm.func');
    assertAll(tokensOf(tokenized, 'llvm.call'), GENERIC_OP, 'llvm.call');
    assertAll(tokensOf(tokenized, 'llvm.ptr'), 'entity.name.type.dialect.mlir', '!llvm.ptr', 2);
    assertAll(tokensOf(tokenized, 'token'), EXECUTOR_TYPE, '!executor.token');
    assertAll(tokensOf(tokenized, 'triple'), 'entity.other.attribute-name.mlir', 'triple');
    assertAll(tokensOf(tokenized, 'dense'), 'support.type.attribute.mlir', 'dense');
    assertAll(tokensOf(tokenized, '?'), 'constant.numeric.dimension.mlir', '? dimensions', 2);
    assertAll(tokensOf(tokenized, 'i32'), 'storage.type.builtin.mlir', 'i32', 3);
    assertAll(tokensOf(tokenized, 'f32'), 'storage.type.builtin.mlir', 'f32');
    const resultCount = tokenAt(tokenized, 4, 5);
    assert.ok(resultCount && hasScope(resultCount, 'constant.numeric.integer.mlir'), '%1:2 has a result count');
    assertAll(tokensOf(tokenized, '// -----'), 'meta.separator.split.mlir', 'the split marker');
    assertAll(tokensOf(tokenized, 'func.func'), GENERIC_OP, 'func.func after the split');
  });

  it('keeps an unterminated string on its line', () => {
    const tokenized = tokenize(grammar, '%s = executor.open("ADDR\n%t = executor.open("B") : !executor.session');
    assertAll(tokensOf(tokenized, 'open'), EXECUTOR_OP, 'executor.open', 1);
    const second = tokenized.lines[1] ?? [];
    assert.ok(second.some((t) => t.text === 'session' && hasScope(t, EXECUTOR_TYPE)), 'the next line is read afresh');
  });
});
