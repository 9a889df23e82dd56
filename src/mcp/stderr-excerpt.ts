/**
 * What of a stdio MCP server's stderr is quoted in its error: its last lines were often the tail of a stack
 * (`at …` frames, `Node.js v22…`), not the reason. The error line when there is one, else the last lines
 * that are not stack frames.
 */
/** The last characters of a stdio server's stderr kept (a Node crash's reason is followed by its stack: 2-3 KB). */
export const STDERR_TAIL_CHARS = 4000;
const EXCERPT_CHARS = 300;
const NOISE = /^\s*(at\s|Node\.js v\d|\^+$|\}$|[\w$]+: .*,?$|throw\b)/;

export function stderrExcerpt(tail: string): string {
  const lines = tail.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim());
  const error = lines.findLast((l) => /^(\w*Error|Error)(\s\[\w+\])?: /.test(l.trim()));
  if (error) return error.trim().slice(0, EXCERPT_CHARS);
  const meaningful = lines.filter((l) => !NOISE.test(l));
  return (meaningful.length ? meaningful : lines).slice(-3).map((l) => l.trim()).join(' | ').slice(-EXCERPT_CHARS);
}
