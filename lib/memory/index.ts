export { MemoryFormatError } from "./errors";
export { cloneItem, hasToolCalls, isPinned } from "./items";
export { DEFAULT_MAX_MESSAGES, messageWindow, none, policyFromConfig, unbounded } from "./policies";
export { SUMMARY_PREFIX, toChatMessages, toResponsesInput } from "./projections";
export {
  type HistoryMessage,
  type HistoryStatus,
  isMemoryMessage,
  isSnapshotCurrent,
  memoryAfterTurn,
  rebuildFromTail,
  retryRefusal,
  tailRowsFor,
} from "./rules";
export {
  MEMORY_LIMITS,
  MEMORY_POLICY_KINDS,
  type MemoryPolicyKind,
  type MemorySettings,
  policyForSettings,
  type ResolvedMemory,
  resolveMemorySettings,
  type SettingsCheck,
  type SettingsError,
  SUMMARY_TRIGGER_FACTOR,
  summaryConfigFor,
  validateMemorySettings,
} from "./settings";
export { fold, restore, snapshot } from "./snapshot";
export {
  applySummary,
  needsSummary,
  planSummary,
  previousSummaryText,
  type Summarizer,
  type SummarizerInput,
  type SummaryConfig,
  type SummaryOutcome,
  type SummaryPlan,
  summarize,
  summaryPolicy,
} from "./summary";
export { composePolicies, tokenWindow, windowPolicy } from "./token-window";
export type { MemoryItem, MemoryPolicy, MemoryRole, SummaryMeta, TokenCounter, ToolCall } from "./types";
