/**
 * The built-in tools' contracts: the single list the workflow and the worker agree on by name.
 * Sandbox-safe (zod only): the workflow bundle imports this file.
 */
import { z } from 'zod';
import { BUILTIN_CLAIM_SPECS } from '../claims/claim-specs.ts';
import { defineToolContract, type ToolContract } from './define-tool.ts';

export const listFilesContract = defineToolContract({
  name: 'list_files',
  description: 'List the files in the workspace (or in a sub-directory of it), with their sizes in bytes.',
  input: z.object({
    dir: z.string().optional().describe('Sub-directory of the workspace; omit for its root.'),
  }),
  output: z.string(),
  readOnly: true,
  risk: 'low',
  timeoutMs: 10_000,
});

export const readFileContract = defineToolContract({
  name: 'read_file',
  description: 'Read a text file from the workspace. Paths are relative to the workspace root.',
  input: z.object({
    path: z.string().min(1).describe('Path relative to the workspace root, e.g. "errors.log".'),
  }),
  output: z.string(),
  readOnly: true,
  risk: 'low',
  timeoutMs: 10_000,
});

export const writeFileContract = defineToolContract({
  name: 'write_file',
  description: 'Write a text file (a draft, a note) in the workspace, replacing it if it exists.',
  input: z.object({
    path: z.string().min(1).describe('Path relative to the workspace root.'),
    content: z.string().describe('The whole text of the file.'),
  }),
  output: z.string(),
  readOnly: false,
  risk: 'medium',
  timeoutMs: 10_000,
  // Writing the same content again has the same effect.
  idempotent: true,
  claims: BUILTIN_CLAIM_SPECS.write_file,
});

export const deleteFileContract = defineToolContract({
  name: 'delete_file',
  description: 'Delete a file from the workspace. Needs a human approval.',
  input: z.object({
    path: z.string().min(1).describe('Path relative to the workspace root.'),
  }),
  output: z.string(),
  readOnly: false,
  risk: 'high',
  timeoutMs: 10_000,
  idempotent: true,
  claims: BUILTIN_CLAIM_SPECS.delete_file,
});

export const sendMessageContract = defineToolContract({
  name: 'send_message',
  description: 'Send a short message to a person (delivered to the outbox). Needs a human approval.',
  input: z.object({
    to: z.string().min(1).describe('Recipient address.'),
    text: z.string().min(1).max(2000),
  }),
  output: z.string(),
  readOnly: false,
  risk: 'high',
  timeoutMs: 10_000,
  idempotent: true,
  // A recipient's address is personal data: kept out of traces, state and CLI output.
  redact: ['to'],
  claims: BUILTIN_CLAIM_SPECS.send_message,
});

export const runCommandContract = defineToolContract({
  name: 'run_command',
  description: 'Run a shell command in the workspace and return its output. Denied unless the run allows it.',
  input: z.object({
    command: z.string().min(1).max(1000),
  }),
  output: z.string(),
  readOnly: false,
  risk: 'extreme',
  timeoutMs: 30_000,
  retry: { maximumAttempts: 1 },
  claims: BUILTIN_CLAIM_SPECS.run_command,
});

export const scanFilesContract = defineToolContract({
  name: 'scan_files',
  description: 'Scan a number of files for problems (slow: reports progress while it works).',
  input: z.object({
    files: z.number().int().positive().max(100_000).default(1200).describe('How many files to scan.'),
    msPerFile: z.number().nonnegative().max(1000).default(2.5).describe('Time spent on each file.'),
  }),
  output: z.string(),
  readOnly: true,
  risk: 'low',
  timeoutMs: 10 * 60_000,
});

/** Runs as a child workflow (the same agent loop, read-only tools, its own limits), not as an activity. */
export const researchContract = defineToolContract({
  name: 'research',
  description: 'Hand one question to a research assistant that reads the workspace and returns a short summary.',
  input: z.object({ question: z.string().min(1).max(2000) }),
  output: z.string(),
  readOnly: true,
  risk: 'low',
  timeoutMs: 10 * 60_000,
  execution: 'child-run',
});

/** Handled by the workflow: the run waits (`waiting_input`) for the user's answer, which becomes the result. */
export const askUserContract = defineToolContract({
  name: 'ask_user',
  description: 'Ask the user one question when you cannot go on without their answer.',
  input: z.object({ question: z.string().min(1).max(2000) }),
  output: z.string(),
  readOnly: true,
  risk: 'low',
  timeoutMs: 10 * 60_000,
  execution: 'user-input',
});

export const toolContracts: readonly ToolContract[] = [
  listFilesContract,
  readFileContract,
  writeFileContract,
  deleteFileContract,
  sendMessageContract,
  runCommandContract,
  scanFilesContract,
  researchContract,
  askUserContract,
];

export const contractsByName: ReadonlyMap<string, ToolContract> = new Map(toolContracts.map((c) => [c.name, c]));
