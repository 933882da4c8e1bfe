export {
  type BuiltContext,
  buildContext,
  type ContextBudget,
  type ContextEntry,
  type ContextSource,
  DEFAULT_ANSWER_RESERVE_TOKENS,
  type DroppedEntry,
  MIN_MAX_TOKENS,
  PREVIEW_CHARS,
  withToolStep,
} from "./build-context";
export { ContextBudgetError } from "./errors";
export {
  type CountedMessage,
  DEFAULT_IMAGE_TOKENS,
  type EncodingName,
  encodingForModel,
  IMAGE_BASE_TOKENS,
  IMAGE_TILE_TOKENS,
  imageTokens,
  REPLY_PRIMING_TOKENS,
  renderedText,
  TOKENS_PER_MESSAGE,
  TOKENS_PER_NAME,
  type Tokenizer,
  tokenizerFor,
} from "./tokenizer";
