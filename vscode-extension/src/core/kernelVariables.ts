// The variables pane of a kernel's frame, as the .mlir file writes the
// kernel (no VS Code API): lldb names the arguments as the .mlir does (the
// kernels' debug info, core's DebugVariables) but knows their types only as
// C's (`double`, `int`, `double *`), and a memref is its descriptor's
// pieces, the data behind a pointer. KernelVariables rewrites lldb-dap's
// `variables` replies for the kernel's frame: a scalar argument gets its
// MLIR type (`f64`, `i32`), a memref its first elements, read with lldb's
// variable paths (`x.aligned[2]`: no expression is compiled or run in the
// session), in its value (`memref<4xf64> [1, 2, 3, 4]`) and as a `data`
// child beside the descriptor's pieces, whose children are the elements.

/** A kernel's argument as the .mlir file declares it. */
export interface KernelArgument {
  name: string;
  /** Its MLIR type, as written (`memref<4xf64>`, `f64`). */
  type: string;
}

/** At most this many elements of a memref are read. */
export const SHOWN_ELEMENTS = 16;

/** `text` split at the commas outside brackets of any kind. */
function splitTopLevel(text: string, separator = ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (c === '<' || c === '(' || c === '[' || c === '{') {
      ++depth;
    } else if (c === '>' || c === ')' || c === ']' || c === '}') {
      --depth;
    } else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** Where the bracket opened at `open` closes in `text`, or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; ++i) {
    const c = text[i];
    if (c === '(' || c === '<' || c === '[' || c === '{') {
      ++depth;
    } else if (c === ')' || c === '>' || c === ']' || c === '}') {
      if (--depth === 0) {
        return i;
      }
    }
  }
  return -1;
}

/** `type {attrs}` without its attributes (the first `{` outside brackets on). */
function withoutAttributes(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (c === '{' && depth === 0) {
      return text.slice(0, i);
    }
    if (c === '<' || c === '(' || c === '[' || c === '{') {
      ++depth;
    } else if (c === '>' || c === ')' || c === ']' || c === '}') {
      --depth;
    }
  }
  return text;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The arguments of `func.func @entry` in `module @module` of the program's
 * text (comments aside), by their names without `%`; undefined when the
 * text has no such function.
 */
export function kernelArguments(text: string, module: string, entry: string): KernelArgument[] | undefined {
  const code = text.replace(/\/\/[^\n]*/g, (comment) => ' '.repeat(comment.length));
  const start = new RegExp(`\\bmodule\\s+@${escapeRegExp(module)}\\b`).exec(code);
  if (!start) {
    return undefined;
  }
  const func = new RegExp(`\\bfunc\\.func\\s+(?:(?:public|private|nested)\\s+)?@${escapeRegExp(entry)}\\s*\\(`, 'g');
  func.lastIndex = start.index;
  const m = func.exec(code);
  if (!m) {
    return undefined;
  }
  const open = m.index + m[0].length - 1;
  const close = closing(code, open);
  if (close < 0) {
    return undefined;
  }
  const args: KernelArgument[] = [];
  for (const part of splitTopLevel(code.slice(open + 1, close))) {
    const arg = /^%([\w$.-]+)\s*:\s*([\s\S]+)$/.exec(part);
    if (!arg) {
      return undefined;
    }
    // The type, without the argument's attributes and location.
    const type = withoutAttributes(arg[2] ?? '').replace(/\s+loc\([\s\S]*$/, '').trim();
    args.push({ name: arg[1] ?? '', type });
  }
  return args;
}

/** A memref type's shape and layout; undefined numbers are dynamic (`?`), read from the descriptor. */
export interface MemRefShape {
  sizes: (number | undefined)[];
  elementType: string;
  /**
   * 'identity': row-major from the sizes, offset 0; undefined: the layout
   * is neither the identity nor `strided<>`: strides and offset are the
   * descriptor's.
   */
  strides: (number | undefined)[] | 'identity' | undefined;
  offset: number | undefined;
}

const SCALAR = /^(?:[su]?i\d+|f16|bf16|f32|f64|f80|f128|index)$/;

/** Whether `type` is an MLIR scalar lldb can show (an integer, float or index). */
export function isScalarType(type: string): boolean {
  return SCALAR.test(type.trim());
}

function dimension(text: string): number | undefined {
  return text.trim() === '?' ? undefined : Number(text.trim());
}

/** `memref<4x?xf64, strided<[?, 1], offset: ?>>`'s shape; undefined when `type` is no memref of scalars. */
export function parseMemRefType(type: string): MemRefShape | undefined {
  const m = /^memref<([\s\S]*)>$/.exec(type.trim());
  if (!m) {
    return undefined;
  }
  const [shape, layout] = splitTopLevel(m[1] ?? '');
  const s = /^((?:(?:\d+|\?)\s*x\s*)*)(\S+)$/.exec(shape ?? '');
  if (!s || !isScalarType(s[2] ?? '')) {
    return undefined;
  }
  const sizes = (s[1] ?? '').split('x').filter((d) => d.trim() !== '').map(dimension);
  const strided = layout === undefined ? null : /^strided<\[([^\]]*)\](?:\s*,\s*offset:\s*(\d+|\?))?>$/.exec(layout);
  if (strided) {
    const strides = (strided[1] ?? '').split(',').filter((d) => d.trim() !== '').map(dimension);
    if (strides.length === sizes.length) {
      return { sizes, elementType: s[2] ?? '', strides, offset: strided[2] === undefined ? 0 : dimension(strided[2]) };
    }
  }
  if (layout === undefined || !/^(?:strided<|affine_map<|#)/.test(layout)) {
    // The identity layout (the second parameter, if any, is a memory space).
    return { sizes, elementType: s[2] ?? '', strides: 'identity', offset: 0 };
  }
  // An affine map (or an alias of one): the descriptor says.
  return { sizes, elementType: s[2] ?? '', strides: undefined, offset: undefined };
}

/** Reads one value by lldb's variable path (`x.aligned[3]`): its text, or an Error. */
export type ReadValue = (path: string) => Promise<string | Error>;

export interface MemRefData {
  /** The elements read, in row-major order, with their indices and variable paths. */
  elements: { index: number[]; path: string; value: string }[];
  /** How many elements the memref has. */
  total: number;
  /** What went wrong, if reading stopped early. */
  error?: string;
}

/** The first `limit` elements of memref argument `name` of `shape`: what the descriptor's sizes, strides and offset say, where the type does not. */
export async function readMemRef(name: string, shape: MemRefShape, read: ReadValue, limit = SHOWN_ELEMENTS): Promise<MemRefData> {
  const piece = async (path: string): Promise<number> => {
    const value = await read(path);
    if (value instanceof Error) {
      throw new Error(`${path}: ${value.message}`);
    }
    const n = Number(value);
    if (!Number.isInteger(n)) {
      throw new Error(`${path} is ${value}`);
    }
    return n;
  };
  const rank = shape.sizes.length;
  try {
    const sizes: number[] = [];
    for (let d = 0; d < rank; ++d) {
      sizes.push(shape.sizes[d] ?? (await piece(`${name}.sizes[${d}]`)));
    }
    const strides: number[] = [];
    for (let d = rank - 1, stride = 1; d >= 0; --d) {
      const written = shape.strides === 'identity' ? stride : shape.strides?.[d];
      strides.unshift(written ?? (await piece(`${name}.strides[${d}]`)));
      stride *= sizes[d] ?? 0;
    }
    const offset = shape.offset ?? (await piece(`${name}.offset`));
    const total = sizes.reduce((a, b) => a * b, 1);
    const data: MemRefData = { elements: [], total };
    const index = sizes.map(() => 0);
    for (let k = 0; k < Math.min(total, limit); ++k) {
      const linear = index.reduce((sum, i, d) => sum + i * (strides[d] ?? 0), offset);
      const path = `${name}.aligned[${linear}]`;
      const value = await read(path);
      if (value instanceof Error) {
        data.error = `${path}: ${value.message}`;
        return data;
      }
      data.elements.push({ index: [...index], path, value });
      // The next index, row-major.
      for (let d = rank - 1; d >= 0; --d) {
        const i = (index[d] ?? 0) + 1;
        if (i < (sizes[d] ?? 0)) {
          index[d] = i;
          break;
        }
        index[d] = 0;
      }
    }
    return data;
  } catch (error) {
    return { elements: [], total: 0, error: error instanceof Error ? error.message : String(error) };
  }
}

/** `[1, 2, 3, 4]`, with `, ...` when there are more than shown. */
export function dataSummary(data: MemRefData): string {
  const values = data.elements.map((e) => e.value);
  if (data.elements.length < data.total) {
    values.push(`... (${data.total} elements)`);
  }
  return `[${values.join(', ')}]`;
}

export interface DapVariable {
  name: string;
  value: string;
  type?: string;
  variablesReference: number;
  evaluateName?: string;
  [key: string]: unknown;
}

/** The first variablesReference of the variables this adds (lldb-dap's own are far below). */
export const OWN_REFERENCES = 0x40000000;

/**
 * The rewrites of one stop: which `variables` replies are a kernel frame's
 * scopes, which are its memref arguments' descriptors, and the `data`
 * children this made (their references, answered here, not by lldb-dap).
 */
export class KernelVariables {
  /** The scopes (variablesReference) of the kernel's frames -> the frame. */
  private readonly frameOf = new Map<number, number>();
  /** A memref argument's descriptor (lldb's reference) -> its `data` child. */
  private readonly descriptors = new Map<number, DapVariable>();
  /** A memref argument's descriptor (lldb's reference) -> its element type and its sizes' and strides' values (`[4]`). */
  private readonly descriptorTypes = new Map<number, { element: string; sizes: string; strides: string }>();
  /** A `data` child's reference -> the elements. */
  private readonly own = new Map<number, DapVariable[]>();
  private next = OWN_REFERENCES;

  constructor(
    private readonly args: KernelArgument[],
    private readonly read: (path: string, frameId: number) => Promise<string | Error>,
  ) {}

  /** A new stop (or a resume): lldb-dap's references of the last one are gone. */
  reset(): void {
    this.frameOf.clear();
    this.descriptorTypes.clear();
    this.descriptors.clear();
    this.own.clear();
    this.next = OWN_REFERENCES;
  }

  /** The scopes of the kernel's frame `frameId` (a `scopes` reply's) that hold its arguments (lldb-dap's Locals). */
  addScopes(scopes: { variablesReference?: unknown; name?: unknown; presentationHint?: unknown }[], frameId: number): void {
    for (const scope of scopes) {
      const locals = scope.presentationHint === 'locals' || scope.presentationHint === 'arguments' || scope.name === 'Locals' || scope.name === 'Arguments';
      if (typeof scope.variablesReference === 'number' && locals) {
        this.frameOf.set(scope.variablesReference, frameId);
      }
    }
  }

  /** The children of `reference` when they are this one's (a `data` child's elements). */
  ownChildren(reference: number): DapVariable[] | undefined {
    return this.own.get(reference);
  }

  /** `variables` (lldb-dap's, of `reference`) as the pane shows them. */
  async rewrite(reference: number, variables: DapVariable[]): Promise<DapVariable[]> {
    const data = this.descriptors.get(reference);
    if (data) {
      return [...variables.map((v) => this.descriptorPiece(reference, v)), data];
    }
    const frameId = this.frameOf.get(reference);
    if (frameId === undefined) {
      return variables;
    }
    const rewritten: DapVariable[] = [];
    for (const variable of variables) {
      const arg = this.args.find((a) => a.name === variable.name);
      if (!arg) {
        rewritten.push(variable);
        continue;
      }
      const shape = parseMemRefType(arg.type);
      if (!shape || variable.variablesReference === 0) {
        rewritten.push(isScalarType(arg.type) ? { ...variable, type: arg.type } : variable);
        continue;
      }
      const read = await readMemRef(variable.evaluateName ?? variable.name, shape, (path) => this.read(path, frameId));
      const summary = read.error !== undefined && read.elements.length === 0 ? `<${read.error}>` : dataSummary(read);
      const elements = read.elements.map((e): DapVariable => ({
        name: `[${e.index.join(', ')}]`,
        value: e.value,
        type: shape.elementType,
        evaluateName: e.path,
        variablesReference: 0,
      }));
      const own = elements.length > 0 ? this.next++ : 0;
      if (own !== 0) {
        this.own.set(own, elements);
      }
      // The descriptor's sizes and strides as lldb reads them (`[4]`, where lldb says `long[1]`).
      const pieces = async (piece: string): Promise<string> => {
        const values: string[] = [];
        for (let d = 0; d < shape.sizes.length; ++d) {
          const value = await this.read(`${variable.evaluateName ?? variable.name}.${piece}[${d}]`, frameId);
          values.push(value instanceof Error ? '?' : value);
        }
        return `[${values.join(', ')}]`;
      };
      this.descriptorTypes.set(variable.variablesReference, { element: shape.elementType, sizes: await pieces('sizes'), strides: await pieces('strides') });
      this.descriptors.set(variable.variablesReference, {
        name: 'data',
        value: summary,
        type: `${shape.elementType}[${read.total}]`,
        variablesReference: own,
      });
      rewritten.push({ ...variable, type: arg.type, value: `${arg.type} ${summary}` });
    }
    return rewritten;
  }

  /** A descriptor's piece with its MLIR type (`f64 *` for the pointers, `index` for the rest), its sizes and strides with their values. */
  private descriptorPiece(reference: number, piece: DapVariable): DapVariable {
    const descriptor = this.descriptorTypes.get(reference);
    if (!descriptor) {
      return piece;
    }
    if (piece.name === 'allocated' || piece.name === 'aligned') {
      return { ...piece, type: `${descriptor.element} *` };
    }
    if (piece.name === 'offset') {
      return { ...piece, type: 'index' };
    }
    if (piece.name === 'sizes' || piece.name === 'strides') {
      return { ...piece, type: piece.type?.replace(/^\w+/, 'index') ?? 'index[]', value: descriptor[piece.name] };
    }
    return piece;
  }
}
