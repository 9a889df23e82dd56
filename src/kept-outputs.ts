/** Whole tool outputs the model saw only the start of, content-addressed: `output:<sha256>`. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export function keepOutputIn(dir: string): (text: string) => Promise<string> {
  return async (text) => {
    const hash = createHash('sha256').update(text).digest('hex');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `${hash}.txt`), text);
    return `output:${hash}`;
  };
}

export function readKeptOutput(dir: string, ref: string): string {
  return readFileSync(path.join(dir, `${ref.replace(/^output:/, '')}.txt`), 'utf8');
}
