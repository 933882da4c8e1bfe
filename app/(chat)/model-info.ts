import { env } from "@/lib/env";

export const modelInfo = () => ({ model: env.model, offline: env.offlineModel });

/** The composer's limit: the same CHAT_MAX_INPUT_CHARS the server enforces. */
export const maxInputChars = () => env.CHAT_MAX_INPUT_CHARS;
