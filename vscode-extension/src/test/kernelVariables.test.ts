// The kernel frame's variables pane (core/kernelVariables.ts): the kernel's
// arguments as the .mlir declares them, a memref type's shape and layout,
// which elements of a memref are read (by lldb's variable paths) and how
// lldb-dap's replies are rewritten. The session tests in
// kernelDebug.test.ts check the same against lldb-dap on a live kernel.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { type DapVariable, KernelVariables, OWN_REFERENCES, kernelArguments, parseMemRefType, readMemRef } from '../core/kernelVariables';

const PROGRAM = `module @host {
  // func.func @axpy(%no: f32) in a comment is not the kernel
  module @local attributes {catalyst.target = {}} {
    func.func @axpy(%a: f32) { return }
  }
  module @remote attributes {catalyst.target = {}, catalyst.dispatch = {address = "ADDR:PORT"}} {
    func.func @axpy(%a: f64, %n: i32 {llvm.noalias},
                    %x: memref<8x?xf64, strided<[?, 1], offset: ?>> loc("p.mlir":3:5)) -> f64 {
      return %a : f64
    }
  }
}
`;

/** A read of `values` by variable path, which records the paths asked for. */
function reader(values: Record<string, string>): { read: (path: string) => Promise<string | Error>; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    read: (path) => {
      asked.push(path);
      const value = values[path];
      return Promise.resolve(value ?? new Error(`no ${path}`));
    },
  };
}

describe("a kernel's variables", () => {
  it("reads the kernel's arguments from its module's func.func, without attributes and locations", () => {
    assert.deepEqual(kernelArguments(PROGRAM, 'remote', 'axpy'), [
      { name: 'a', type: 'f64' },
      { name: 'n', type: 'i32' },
      { name: 'x', type: 'memref<8x?xf64, strided<[?, 1], offset: ?>>' },
    ]);
    assert.deepEqual(kernelArguments(PROGRAM, 'local', 'axpy'), [{ name: 'a', type: 'f32' }]);
    assert.equal(kernelArguments(PROGRAM, 'remote', 'nope'), undefined);
    assert.equal(kernelArguments(PROGRAM, 'nope', 'axpy'), undefined);
  });

  it("reads a memref type's sizes, element type, strides and offset (undefined: the descriptor's)", () => {
    assert.deepEqual(parseMemRefType('memref<4xf64>'), { sizes: [4], elementType: 'f64', strides: 'identity', offset: 0 });
    assert.deepEqual(parseMemRefType('memref<2x3xi32, 1>'), { sizes: [2, 3], elementType: 'i32', strides: 'identity', offset: 0 });
    assert.deepEqual(parseMemRefType('memref<?x3xf32>'), { sizes: [undefined, 3], elementType: 'f32', strides: 'identity', offset: 0 });
    assert.deepEqual(parseMemRefType('memref<f16>'), { sizes: [], elementType: 'f16', strides: 'identity', offset: 0 });
    assert.deepEqual(parseMemRefType('memref<4x4xf64, strided<[8, 2], offset: ?>>'), { sizes: [4, 4], elementType: 'f64', strides: [8, 2], offset: undefined });
    assert.deepEqual(parseMemRefType('memref<4xindex, affine_map<(d0) -> (d0 + 1)>>'), { sizes: [4], elementType: 'index', strides: undefined, offset: undefined });
    assert.equal(parseMemRefType('memref<4xvector<2xf32>>'), undefined);
    assert.equal(parseMemRefType('f64'), undefined);
  });

  it('reads the first elements in row-major order at offset + index . strides, the dynamic pieces from the descriptor', async () => {
    const { read, asked } = reader({ 'y.sizes[1]': '3', 'y.offset': '10', 'y.aligned[10]': '1', 'y.aligned[12]': '2', 'y.aligned[14]': '3', 'y.aligned[18]': '4' });
    const data = await readMemRef('y', { sizes: [2, undefined], elementType: 'f32', strides: [8, 2], offset: undefined }, read, 4);
    assert.deepEqual(asked, ['y.sizes[1]', 'y.offset', 'y.aligned[10]', 'y.aligned[12]', 'y.aligned[14]', 'y.aligned[18]']);
    assert.equal(data.total, 6);
    assert.deepEqual(data.elements.map((e) => [e.index, e.value]), [[[0, 0], '1'], [[0, 1], '2'], [[0, 2], '3'], [[1, 0], '4']]);
    const failed = await readMemRef('z', { sizes: [undefined], elementType: 'f64', strides: 'identity', offset: 0 }, reader({}).read);
    assert.match(failed.error ?? '', /z\.sizes\[0\]: no z\.sizes\[0\]/);
  });

  it("rewrites lldb-dap's replies for the kernel frame's scopes: MLIR types, a memref's data in its value and as a child", async () => {
    const values: Record<string, string> = { 'x.sizes[0]': '8', 'x.sizes[1]': '2', 'x.strides[0]': '2', 'x.strides[1]': '1' };
    for (let i = 0; i < 16; ++i) {
      values[`x.aligned[${i}]`] = String(i + 1);
    }
    const { read } = reader(values);
    const args = kernelArguments(PROGRAM, 'remote', 'axpy') ?? [];
    args[2] = { name: 'x', type: 'memref<8x?xf64>' };
    const variables = new KernelVariables(args, read);
    const locals: DapVariable[] = [
      { name: 'a', value: '2.5', type: 'double', variablesReference: 0 },
      { name: 'n', value: '-3', type: 'int', variablesReference: 0 },
      { name: 'x', value: 'memref<8x?xf64>', type: 'memref<8x?xf64>', variablesReference: 14, evaluateName: 'x' },
      { name: 'tmp', value: '1', type: 'long', variablesReference: 0 },
    ];
    // Not a kernel frame's scope (none added yet): as it came.
    assert.deepEqual(await variables.rewrite(1, locals), locals);
    variables.addScopes([{ name: 'Locals', variablesReference: 1 }, { name: 'Globals', variablesReference: 2 }, { name: 'Registers', variablesReference: 3 }], 7);
    assert.deepEqual(await variables.rewrite(2, locals), locals);
    assert.deepEqual(await variables.rewrite(3, locals), locals);
    const shown = await variables.rewrite(1, locals);
    assert.deepEqual(shown.map((v) => [v.name, v.type, v.value]), [
      ['a', 'f64', '2.5'],
      ['n', 'i32', '-3'],
      ['x', 'memref<8x?xf64>', 'memref<8x?xf64> [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]'],
      ['tmp', 'long', '1'],
    ]);
    const descriptor = await variables.rewrite(14, [
      { name: 'allocated', value: '0x0', type: 'double *', variablesReference: 15 },
      { name: 'aligned', value: '0x10', type: 'double *', variablesReference: 16 },
      { name: 'offset', value: '0', type: 'long', variablesReference: 0 },
      { name: 'sizes', value: 'long[2]', type: 'long[2]', variablesReference: 18 },
    ]);
    assert.deepEqual(descriptor.map((v) => [v.name, v.type, v.value]), [
      ['allocated', 'f64 *', '0x0'],
      ['aligned', 'f64 *', '0x10'],
      ['offset', 'index', '0'],
      ['sizes', 'index[2]', '[8, 2]'],
      ['data', 'f64[16]', '[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]'],
    ]);
    const data = descriptor[4];
    assert.ok(data && data.variablesReference >= OWN_REFERENCES);
    const elements = variables.ownChildren(data.variablesReference) ?? [];
    assert.equal(elements.length, 16);
    assert.deepEqual(elements[3], { name: '[1, 1]', value: '4', type: 'f64', evaluateName: 'x.aligned[3]', variablesReference: 0 });
    // A resume: lldb-dap's references are gone, and so are these.
    variables.reset();
    assert.equal(variables.ownChildren(data.variablesReference), undefined);
    assert.deepEqual(await variables.rewrite(1, locals), locals);
  });

  it('says "..." and how many elements there are past the first 16', async () => {
    const values: Record<string, string> = {};
    for (let i = 0; i < 16; ++i) {
      values[`big.aligned[${i}]`] = '0';
    }
    const variables = new KernelVariables([{ name: 'big', type: 'memref<100xi8>' }], reader(values).read);
    variables.addScopes([{ name: 'Locals', variablesReference: 1 }], 1);
    const [big] = await variables.rewrite(1, [{ name: 'big', value: '', variablesReference: 2 }]);
    assert.equal(big?.value, `memref<100xi8> [${Array(16).fill('0').join(', ')}, ... (100 elements)]`);
  });
});
