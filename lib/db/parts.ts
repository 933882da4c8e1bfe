import { type AttachmentPart, readAttachmentParts } from "@/lib/attachments/parts";
import type { ToolCall } from "@/lib/memory";

/**
 * The structured parts of a stored message (ChatMessage.parts): image URLs (or attachment references), tool calls
 * and attachments (lib/attachments/parts.ts), empty when absent.
 */
export function readParts(value: unknown): {
  imageUrls: string[];
  toolCalls: ToolCall[];
  attachments: AttachmentPart[];
} {
  const parts = (typeof value === "object" && value !== null ? value : {}) as {
    imageUrls?: unknown;
    toolCalls?: unknown;
  };
  return {
    imageUrls: Array.isArray(parts.imageUrls) ? (parts.imageUrls as string[]) : [],
    toolCalls: Array.isArray(parts.toolCalls) ? (parts.toolCalls as ToolCall[]) : [],
    attachments: readAttachmentParts(value),
  };
}
