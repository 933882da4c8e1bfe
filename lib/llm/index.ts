export { getModel, isAbortError, type Model, streamReply } from "./client";
