export {
  type ApiStyle,
  createModel,
  getModel,
  isAbortError,
  type Model,
  type ModelConfig,
  OFFLINE_BASE_URL,
  type ReplyEvent,
  type ReplyUsage,
  type StreamReplyOptions,
  streamReply,
} from "./client";
export {
  createOfflineFetch,
  estimateTokens,
  OFFLINE_MODEL_NAME,
  type OfflineFetchOptions,
  type OfflineMessage,
  offlineReply,
} from "./offline-model";
