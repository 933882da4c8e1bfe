export {
  type BuiltContext,
  buildContext,
  type ToolDefinition,
  withToolStep,
} from "./build-context";
export { ContextBudgetError } from "./errors";
export {
  DEFAULT_IMAGE_TOKENS,
  imageTokens,
  tokenizerFor,
} from "./tokenizer";
