export { MemoryFormatError } from "./errors";
export { cloneItem, hasToolCalls, isPinned } from "./items";
export { DEFAULT_MAX_MESSAGES, messageWindow, none, policyFromConfig, unbounded } from "./policies";
export { SUMMARY_PREFIX, toChatMessages, toResponsesInput } from "./projections";
export { fold, restore, snapshot } from "./snapshot";
export type { MemoryItem, MemoryPolicy, MemoryRole, ToolCall } from "./types";
