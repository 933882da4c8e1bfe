import { env } from "@/lib/env";

export const modelInfo = () => ({ model: env.model, offline: env.offlineModel });
