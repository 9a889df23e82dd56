// @ts-check
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

/** src/ runs from the Docker image, which has no test/ (the bench runs there too). */
const noTestImports = { regex: '^(\\.\\./)+test/', message: 'src/ runs without test/ (the Docker image has none): move what it needs into src/.' };

/** Workflow code runs in Temporal's deterministic sandbox: no Node built-ins, no I/O packages, no activity values. */
const sandboxBans = {
  paths: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].map((name) => ({
    name,
    message: 'Workflow code runs in a deterministic sandbox: do I/O in an activity.',
  })),
  patterns: [
    { group: ['node:*'], message: 'Workflow code runs in a deterministic sandbox: do I/O in an activity.' },
    { group: ['openai', 'openai/*', '@temporalio/worker', '@temporalio/client', '@temporalio/activity'], message: 'Not allowed in workflow code.' },
    { group: ['**/activities/*', '**/activities'], allowTypeImports: true, message: 'Import activities as types only (proxyActivities).' },
    {
      regex: '(^|/)wire/run-(state|input)\\.ts$|^\\./run-(state|input)\\.ts$',
      allowTypeImports: true,
      message: 'It builds zod schemas, and the workflow modules are evaluated again for every run: import its types only (values: default-limits.ts, types.ts).',
    },
    noTestImports,
  ],
};

/** The wire types are the bottom layer: the rest imports them, they import no value from the rest. */
const wireBans = {
  ...sandboxBans,
  patterns: [...sandboxBans.patterns, { regex: '^\\.\\./', allowTypeImports: true, message: 'src/wire imports no value from the rest of src/: move the shared piece into src/wire.' }],
};

export default tseslint.config(
  { ignores: ['node_modules/**', '.cache/**', '.data/**', 'dist/**', 'examples/*/.data/**', 'examples/*/.cache/**', 'eslint.config.js'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test registers these; their promises are the runner's to await.
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // examples/custom-agent is a project of its own: its tsconfig.json resolves the package from its own
    // node_modules (none here). Linted with this repository's, which resolves the package's name to src/.
    files: ['examples/custom-agent/**/*.ts'],
    languageOptions: { parserOptions: { projectService: false, project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
  },
  {
    files: ['src/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noTestImports] }] },
  },
  {
    // The inbox and run pages' browser scripts: plain JS served as written (no build, no type project).
    files: ['src/http/ui/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { sourceType: 'module', parserOptions: { projectService: false, project: null } },
  },
  {
    // Everything the workflow bundle imports: the loop, the wire types, the claim checker, the tool contracts.
    files: ['workflows/**/*.ts', 'src/wire/**/*.ts', 'src/claims/**/*.ts', 'src/cli/bench/floor-workflow.ts', 'src/tools/define-tool.ts', 'src/tools/contracts.ts', 'src/tools/mcp-contracts.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', sandboxBans],
      'no-restricted-globals': ['error', { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' }, { name: 'setInterval', message: 'Not deterministic.' }, { name: 'fetch', message: 'Do I/O in an activity.' }, { name: 'process', message: 'Not available in the workflow sandbox.' }],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'Use uuid4() from @temporalio/workflow.' }],
    },
  },
  {
    // After the block above: a later block's options for a rule replace an earlier one's.
    files: ['src/wire/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', wireBans] },
  },
);
