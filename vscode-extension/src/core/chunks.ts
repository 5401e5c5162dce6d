// `// -----` split files: which chunk a line is in, as the server counts them
// (lsp/lib/SplitFile.cpp: a line whose text, after leading blanks, starts
// with `// -----` ends a chunk).

const SPLIT_MARKER = '// -----';

function isSplitLine(line: string): boolean {
  return line.replace(/^[ \t]+/, '').startsWith(SPLIT_MARKER);
}

/** The chunk (from 0) that holds the zero-based `line` of `text`. */
export function chunkAtLine(text: string, line: number): number {
  const lines = text.split('\n');
  let chunk = 0;
  for (let i = 0; i < Math.min(line, lines.length); ++i) {
    if (isSplitLine(lines[i] ?? '')) {
      ++chunk;
    }
  }
  return chunk;
}

/** How many chunks `text` has. */
export function countChunks(text: string): number {
  return text.split('\n').filter(isSplitLine).length + 1;
}
