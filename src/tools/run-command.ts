import { execFile } from 'node:child_process';
import { implementTool } from './define-tool.ts';
import { runCommandContract } from './contracts.ts';

const MAX_OUTPUT = 16_000;

/** Runs `sh -c` in the workspace. Extreme risk: the policy denies it unless a run allows it by name. */
export const runCommand = implementTool(runCommandContract, ({ command }, ctx) => {
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', command], { cwd: ctx.workspace, signal: ctx.signal, timeout: 25_000, maxBuffer: 4 * MAX_OUTPUT }, (error, stdout, stderr) => {
      const output = `${stdout}${stderr}`.slice(0, MAX_OUTPUT);
      if (error && ctx.signal.aborted) return reject(new Error("command aborted", { cause: error }));
      if (error) return reject(new Error(`command failed (${error.code ?? error.signal ?? 'error'}): ${output || error.message}`));
      resolve(output || '(no output)');
    });
  });
});
