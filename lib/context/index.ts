export {
  type BuiltContext,
  buildContext,
  type ContextEntry,
  type ContextSource,
  PREVIEW_CHARS,
} from "./build-context";
export { CHARS_PER_TOKEN, estimateTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from "./estimate-tokens";
