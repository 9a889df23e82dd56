/**
 * The custom search attributes that make runs findable in Temporal (`GET /runs?status=…`, the CLI's
 * `temporal workflow list --query 'AgentStatus="waiting_approval"'`, columns in the Web UI). They are
 * registered on the dev server at start (temporal-server.ts) and must be registered on any other server
 * (`temporal operator search-attribute create`). Sandbox-safe: the workflow can import these keys to
 * upsert them.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const AGENT_STATUS = defineSearchAttributeKey('AgentStatus', SearchAttributeType.KEYWORD);
/** The tool whose call waits for approval (empty when none). */
export const AGENT_PENDING_TOOL = defineSearchAttributeKey('AgentPendingTool', SearchAttributeType.KEYWORD);
export const AGENT_TURNS = defineSearchAttributeKey('AgentTurns', SearchAttributeType.INT);
export const AGENT_COST_USD = defineSearchAttributeKey('AgentCostUsd', SearchAttributeType.DOUBLE);
export const AGENT_MODEL = defineSearchAttributeKey('AgentModel', SearchAttributeType.KEYWORD);

export const AGENT_SEARCH_ATTRIBUTES = [AGENT_STATUS, AGENT_PENDING_TOOL, AGENT_TURNS, AGENT_COST_USD, AGENT_MODEL] as const;

/** How `temporal server start-dev --search-attribute` and `temporal operator search-attribute create` name the types. */
const CLI_TYPE_NAMES = { KEYWORD: 'Keyword', INT: 'Int', DOUBLE: 'Double' } as const;

/** `--search-attribute Name=Type` for each attribute, for `temporal server start-dev`. */
export function devServerSearchAttributeArgs(): string[] {
  return AGENT_SEARCH_ATTRIBUTES.flatMap((key) => ['--search-attribute', `${key.name}=${CLI_TYPE_NAMES[key.type]}`]);
}
