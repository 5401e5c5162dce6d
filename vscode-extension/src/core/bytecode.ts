// MLIR bytecode (.mlirbc) as text, the way vscode-mlir does it: the server
// converts the file to text (`mlir/convertFromBytecode`) for a document under
// the `mlir.bytecode-mlir` scheme and the open document back to bytecode
// (`mlir/convertToBytecode`, base64) when it is saved. No VS Code API here.

import { isRecord } from './protocol';

/** The first bytes of every MLIR bytecode file. */
export const BYTECODE_MAGIC = Buffer.from([0x4d, 0x4c, 0xef, 0x52]); // "ML\xefR"

/** The `output` of a bytecode request's reply; an error naming `method` when there is none. */
export function conversionOutput(method: string, reply: unknown): string {
  if (!isRecord(reply) || typeof reply['output'] !== 'string') {
    throw new Error(`${method} answered without an "output": ${JSON.stringify(reply)}`);
  }
  return reply['output'];
}

/** The bytes of `mlir/convertToBytecode`'s base64 output; an error when they are not MLIR bytecode. */
export function decodeBytecode(base64: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64.replace(/\s+/g, ''))) {
    throw new Error('mlir/convertToBytecode answered with something that is not base64');
  }
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length < BYTECODE_MAGIC.length || !bytes.subarray(0, BYTECODE_MAGIC.length).equals(BYTECODE_MAGIC)) {
    throw new Error('mlir/convertToBytecode answered with bytes that are not MLIR bytecode (no "ML\\xefR" at the start)');
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** What the user is told when a .mlirbc file cannot be shown or saved. */
export function bytecodeErrorMessage(action: 'read' | 'save', file: string, error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return action === 'read'
    ? `Executor Studio cannot show ${file} as text: ${why}`
    : `Executor Studio did not save ${file} as bytecode: ${why}`;
}
