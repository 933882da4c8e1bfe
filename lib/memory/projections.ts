import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { ResponseInputContent, ResponseInputItem } from "openai/resources/responses/responses";
import { isAttachmentRef } from "./attachments";
import { MemoryFormatError } from "./errors";
import type { MemoryItem } from "./types";

/** Summaries are shown to the model as system text; the prefix keeps them distinguishable from instructions. */
export const SUMMARY_PREFIX = "Summary of the earlier conversation:\n";

function summaryText(item: MemoryItem): string {
  return `${SUMMARY_PREFIX}${item.text}`;
}

function requireToolCallId(item: MemoryItem, index: number): string {
  if (item.toolCallId === undefined || item.toolCallId === "") {
    throw new MemoryFormatError(
      `items[${index}].toolCallId`,
      "a tool item needs the id of the call it answers",
    );
  }
  return item.toolCallId;
}

/**
 * The image URLs of a user item as sent. An `attachment:` reference must have been replaced by its data URL
 * (lib/attachments/resolve.ts) just before the call: a provider would reject it, so it is our bug, said loudly.
 */
function sentImages(item: MemoryItem, index: number): string[] {
  const urls = item.imageUrls ?? [];
  urls.forEach((url, i) => {
    if (isAttachmentRef(url)) {
      throw new MemoryFormatError(
        `items[${index}].imageUrls[${i}]`,
        "an attachment reference must be resolved to its data before it is sent",
      );
    }
  });
  return urls;
}

/**
 * Chat Completions `messages`. Images are rendered only for user items (the only role the API accepts them
 * for); a user item without images keeps plain string content.
 */
export function toChatMessages(items: readonly MemoryItem[]): ChatCompletionMessageParam[] {
  return items.map(toChatMessage);
}

function toChatMessage(item: MemoryItem, index: number): ChatCompletionMessageParam {
  if (item.summary) return { role: "system", content: summaryText(item) };
  switch (item.role) {
    case "system":
      return { role: "system", content: item.text };
    case "user": {
      const images = sentImages(item, index);
      if (images.length === 0) return { role: "user", content: item.text };
      const parts: ChatCompletionContentPart[] = [];
      if (item.text !== "") parts.push({ type: "text", text: item.text });
      for (const url of images) parts.push({ type: "image_url", image_url: { url } });
      return { role: "user", content: parts };
    }
    case "assistant": {
      const calls = item.toolCalls ?? [];
      if (calls.length === 0) return { role: "assistant", content: item.text };
      return {
        role: "assistant",
        content: item.text === "" ? null : item.text,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: "function" as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
    case "tool":
      return { role: "tool", tool_call_id: requireToolCallId(item, index), content: item.text };
  }
}

function inputContent(item: MemoryItem, index: number): ResponseInputContent[] {
  const parts: ResponseInputContent[] = [];
  const images = sentImages(item, index);
  if (item.text !== "" || images.length === 0) parts.push({ type: "input_text", text: item.text });
  for (const url of images) parts.push({ type: "input_image", image_url: url, detail: "auto" });
  return parts;
}

/**
 * Responses API `input`. An assistant item with tool calls becomes its text message (if any) followed by one
 * `function_call` item per call, so a single item may project to several input items.
 */
export function toResponsesInput(items: readonly MemoryItem[]): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  items.forEach((item, index) => {
    if (item.summary) {
      out.push({
        type: "message",
        role: "system",
        content: [{ type: "input_text", text: summaryText(item) }],
      });
      return;
    }
    switch (item.role) {
      case "system":
        out.push({ type: "message", role: "system", content: [{ type: "input_text", text: item.text }] });
        return;
      case "user":
        out.push({ type: "message", role: "user", content: inputContent(item, index) });
        return;
      case "assistant": {
        const calls = item.toolCalls ?? [];
        if (item.text !== "" || calls.length === 0) {
          out.push({ type: "message", role: "assistant", content: item.text });
        }
        for (const call of calls) {
          out.push({ type: "function_call", call_id: call.id, name: call.name, arguments: call.arguments });
        }
        return;
      }
      case "tool":
        out.push({
          type: "function_call_output",
          call_id: requireToolCallId(item, index),
          output: item.text,
        });
        return;
    }
  });
  return out;
}
