// The memory domain's public surface: what the turn pipeline, the context builder and the admin view use.
export {
  type ComposedContext,
  type ContextBudget,
  composeContext,
  DEFAULT_ANSWER_RESERVE_TOKENS,
  type RecallInput,
} from "./context";
export { ContextBudgetError, MemoryFormatError } from "./errors";
export {
  type Instruction,
  type InstructionScope,
  instructionItems,
  MAX_INSTRUCTION_CHARS,
} from "./instructions";
export { cloneItem } from "./items";
export {
  type LongTermFact,
  longTermSection,
  matchFacts,
  normalizeSubject,
  rankFacts,
  subjectOf,
  terms,
} from "./long-term";
export { messageWindow, none } from "./policies";
export { SUMMARY_PREFIX, toChatMessages, toResponsesInput } from "./projections";
export type { RecallCandidate, RecallMessage } from "./recall";
export {
  type HistoryMessage,
  isSnapshotCurrent,
  memoryAfterTurn,
  rebuildFromTail,
  retryRefusal,
  summariesOnPath,
  tailRowsFor,
} from "./rules";
export {
  type MemorySettings,
  resolveMemorySettings,
  SUMMARY_TRIGGER_FACTOR,
  summaryConfigFor,
  validateMemorySettings,
} from "./settings";
export { restore } from "./snapshot";
export { needsSummary, SUMMARY_SLACK_FACTOR, type SummarizerInput, summarize } from "./summary";
export type { MemoryItem, MemoryRole, SummaryMeta, TokenCounter, ToolCall } from "./types";
