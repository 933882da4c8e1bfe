import { toolCommand } from "../tool-command";
import type { WireAnswer, WireRequest } from "../wire";
import { attachmentReply } from "./attachments";
import { demoReply } from "./reply";
import { isSummaryRequest } from "./summary";
import { isTitleRequest } from "./title";
import { demoToolStep } from "./tools";

// The demo model (docs/decisions/003-offline-model.md): what a newcomer meets in `npm run demo` without a provider
// key. Deterministic and memory-honest: it answers from the request alone, so what it recalls is what the app sent.

export const DEMO_MODEL_NAME = "recall-offline";

export { demoReply } from "./reply";

export function demoAnswer(request: WireRequest): WireAnswer {
  const { messages } = request;
  const task = isSummaryRequest(messages) || isTitleRequest(messages);
  const step = task ? null : (toolCommand(request) ?? demoToolStep(messages, request.tools));
  if (step && "calls" in step) return step;
  const reply = step?.reply ?? demoReply(messages);
  return { reply: task ? reply : attachmentReply(messages, reply) };
}
