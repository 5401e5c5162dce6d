// `executor/sourceLines`: each line of a .mlir file and the lines of one
// step (its MLIR, a kernel's LLVM IR or assembly) it became, read by the
// server from `loc`, `!dbg` and `.loc` (core's mapSourceLines, the studio's
// linked view). "Executor: Show This Step Linked to the Source" opens the
// step beside the file, each source line and its lines in one colour, and
// follows the cursor. Pure logic here; the editors are extension.ts's.

import { isRecord } from './protocol';

export const SOURCE_LINES_METHOD = 'executor/sourceLines';

/** The colours of linked lines, cycled by a source line's rank (as the studio's). */
export const LINK_COLOURS = [
  'rgba(70, 130, 220, 0.25)', 'rgba(220, 150, 60, 0.25)', 'rgba(90, 180, 110, 0.25)',
  'rgba(200, 90, 160, 0.25)', 'rgba(60, 180, 190, 0.25)', 'rgba(190, 170, 70, 0.25)',
  'rgba(150, 110, 220, 0.25)', 'rgba(210, 100, 90, 0.25)',
] as const;

export interface SourceLink {
  /** A line of the file, 0-based. */
  sourceLine: number;
  /** The step's lines it became, 0-based, ascending. */
  stepLines: number[];
}

export interface SourceLines {
  name: string;
  kind: string;
  text: string;
  links: SourceLink[];
}

export class SourceLinesFormatError extends Error {
  constructor(what: string) {
    super(`executor-lsp-server sent source lines this extension cannot read: ${what}`);
    this.name = 'SourceLinesFormatError';
  }
}

function isLine(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** Reads an `executor/sourceLines` reply; throws SourceLinesFormatError for anything else. */
export function parseSourceLines(value: unknown): SourceLines {
  if (!isRecord(value)) {
    throw new SourceLinesFormatError('not an object');
  }
  const { name, kind, text, links } = value;
  if (typeof name !== 'string' || typeof kind !== 'string' || typeof text !== 'string') {
    throw new SourceLinesFormatError('no "name", "kind" or "text"');
  }
  if (!Array.isArray(links)) {
    throw new SourceLinesFormatError('no "links"');
  }
  const stepCount = text.split('\n').length;
  const parsed: SourceLink[] = [];
  for (const link of links) {
    if (!isRecord(link) || !isLine(link['sourceLine']) || !Array.isArray(link['stepLines']) ||
        !link['stepLines'].every((l) => isLine(l) && l < stepCount)) {
      throw new SourceLinesFormatError(`a link that is not {sourceLine, stepLines} within the step: ${JSON.stringify(link)}`);
    }
    parsed.push({ sourceLine: link['sourceLine'], stepLines: [...(link['stepLines'] as number[])] });
  }
  parsed.sort((a, b) => a.sourceLine - b.sourceLine);
  return { name, kind, text, links: parsed };
}

/** Lines of each colour: `source[c]` and `step[c]` are the lines of LINK_COLOURS[c]. */
export interface Colouring {
  source: number[][];
  step: number[][];
}

/** Each source line and what it became in one colour, cycled by rank. */
export function colourLinks(lines: SourceLines): Colouring {
  const source: number[][] = LINK_COLOURS.map(() => []);
  const step: number[][] = LINK_COLOURS.map(() => []);
  lines.links.forEach((link, rank) => {
    const c = rank % LINK_COLOURS.length;
    source[c]?.push(link.sourceLine);
    step[c]?.push(...link.stepLines);
  });
  return { source, step };
}

/** The step lines of source line `line` (0-based): what follows the cursor. */
export function stepLinesOf(lines: SourceLines, line: number): number[] {
  return lines.links.find((l) => l.sourceLine === line)?.stepLines ?? [];
}

/** The source lines step line `line` came from. */
export function sourceLinesOf(lines: SourceLines, line: number): number[] {
  return lines.links.filter((l) => l.stepLines.includes(line)).map((l) => l.sourceLine);
}
