import type { Scenario } from '../scenario.ts';
import plan from './plan.ts';
import recover from './recover.ts';
import runaway from './runaway.ts';

/** Built-in scenarios, chosen with `model: "scripted:<name>"`. */
export const builtinScenarios: Readonly<Record<string, Scenario>> = { plan, runaway, recover };
