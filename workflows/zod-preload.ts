/**
 * Loaded once per workflow thread, before any run (`preloadModules` in `src/worker/workflow-bundle.ts`): the zod
 * library, shared by every run the thread holds instead of evaluated again for each run (it was most of a
 * run's start-up CPU and of a cached run's memory). Nothing per run lives in it: each run still builds its
 * own schemas (tool contracts, output contracts, MCP tools), only the library's code and classes are shared.
 *
 * zod's modules load only as far as what is used here reaches (its package declares them free of side
 * effects), so everything the workflow uses is touched here: `fromJSONSchema` included. The SDK freezes
 * what a preloaded module exports, so what zod computes lazily into an exported object must be computed
 * here first: parsing an object once settles `util.allowsEval`.
 */
import { z } from 'zod';

z.object({ warm: z.string() }).safeParse({ warm: '' });
z.fromJSONSchema({ type: 'object', properties: { warm: { type: 'string' } } }).safeParse({ warm: '' });

export const zodLoaded = true;
