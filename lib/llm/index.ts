export { getModel, isAbortError, type Model, streamReply, type ToolSpec } from "./client";
