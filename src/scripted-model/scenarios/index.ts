import type { Scenario } from '../scenario.ts';
import askUser from './ask-user.ts';
import deleteApproval from './delete-approval.ts';
import deleteTwice from './delete-twice.ts';
import falseClaim from './false-claim.ts';
import manyWrites from './many-writes.ts';
import mcpCall from './mcp-call.ts';
import parallel from './parallel.ts';
import plan from './plan.ts';
import qa from './qa.ts';
import readMany from './read-many.ts';
import readTwice from './read-twice.ts';
import recover from './recover.ts';
import research from './research.ts';
import runaway from './runaway.ts';
import slowScan from './slow-scan.ts';

/** Built-in scenarios, chosen with `model: "scripted:<name>"`. */
export const builtinScenarios: Readonly<Record<string, Scenario>> = {
  plan,
  runaway,
  recover,
  'delete-approval': deleteApproval,
  'delete-twice': deleteTwice,
  'read-twice': readTwice,
  'slow-scan': slowScan,
  research,
  parallel,
  'read-many': readMany,
  qa,
  'false-claim': falseClaim,
  'ask-user': askUser,
  'mcp-call': mcpCall,
  'many-writes': manyWrites,
};
