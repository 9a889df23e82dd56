/** Workspace confinement of the file tools. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { resolveInWorkspace, WorkspaceEscapeError } from '../src/tools/workspace.ts';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'ws-test-')));
after(() => rmSync(root, { recursive: true, force: true }));
const workspace = path.join(root, 'ws');
mkdirSync(path.join(workspace, 'sub'), { recursive: true });
writeFileSync(path.join(workspace, 'sub', 'a.txt'), 'a');
writeFileSync(path.join(root, 'secret.txt'), 'secret');
symlinkSync(path.join(root, 'secret.txt'), path.join(workspace, 'leak.txt'));
symlinkSync(path.join(workspace, 'sub'), path.join(workspace, 'inside'));

test('paths inside the workspace resolve, through inside links too', async () => {
  assert.equal(await resolveInWorkspace(workspace, 'sub/a.txt'), path.join(workspace, 'sub', 'a.txt'));
  assert.equal(await resolveInWorkspace(workspace, 'inside/a.txt'), path.join(workspace, 'sub', 'a.txt'));
  assert.equal(await resolveInWorkspace(workspace, 'missing.txt'), path.join(workspace, 'missing.txt'));
});

test('"..", absolute paths and outward links are refused', async () => {
  await assert.rejects(resolveInWorkspace(workspace, '../secret.txt'), WorkspaceEscapeError);
  await assert.rejects(resolveInWorkspace(workspace, 'sub/../../secret.txt'), WorkspaceEscapeError);
  await assert.rejects(resolveInWorkspace(workspace, path.join(root, 'secret.txt')), WorkspaceEscapeError);
  await assert.rejects(resolveInWorkspace(workspace, 'leak.txt'), /outside the workspace/);
});

// Each check alone: a test that only the `..` rule can fail, and one that only the real-path check can.
test('".." is refused by its own rule, even where it would stay inside the workspace', async () => {
  await assert.rejects(resolveInWorkspace(workspace, 'sub/../sub/a.txt'), (error: Error) => error instanceof WorkspaceEscapeError && /contains "\.\."/.test(error.message));
});

test('a link out of the workspace is refused by the real-path check, for a file there and one not yet written', async () => {
  symlinkSync(root, path.join(workspace, 'up'));
  for (const requested of ['up/secret.txt', 'up/new.txt', 'leak.txt']) {
    await assert.rejects(resolveInWorkspace(workspace, requested), (error: Error) => error instanceof WorkspaceEscapeError && /resolves outside the workspace/.test(error.message), requested);
  }
});
