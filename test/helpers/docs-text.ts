/** What the documentation says: the README and every page under docs/ (the README's depth moved there). */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/paths.ts';

export const DOC_FILES: readonly string[] = [
  'README.md',
  ...readdirSync(path.join(PROJECT_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => path.join('docs', f)),
];

/** The README and the docs pages, one after the other. */
export function docsText(): string {
  return DOC_FILES.map((file) => readFileSync(path.join(PROJECT_ROOT, file), 'utf8')).join('\n\n');
}
