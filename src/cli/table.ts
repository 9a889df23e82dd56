/** Renders rows as an aligned text table; numbers are right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [header, ...rows].map((row) => row.map((c) => String(c)));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]?.length ?? 0)));
  const numeric = header.map((_, i) => rows.every((row) => typeof row[i] === 'number' || /^[\d.,$%+-]+( ?\w+)?$/.test(String(row[i]))));
  const render = (row: string[]) => row.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [render(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(render)].join('\n');
}
