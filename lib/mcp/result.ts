// What a tool result becomes for the model: its text, never more than the server's limit.

interface ContentItem {
  type: string;
  text?: string;
  mimeType?: string;
  uri?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

/** The text of a CallToolResult: text items as they are, other items named, structured content as JSON. */
export function resultText(result: {
  content?: unknown;
  structuredContent?: unknown;
  toolResult?: unknown;
}): string {
  if (result.content === undefined && "toolResult" in result) return JSON.stringify(result.toolResult);
  const items = Array.isArray(result.content) ? (result.content as ContentItem[]) : [];
  if (items.length === 0 && result.structuredContent !== undefined)
    return JSON.stringify(result.structuredContent);
  return items
    .map((item) => {
      if (item.type === "text") return item.text ?? "";
      if (item.type === "resource") return item.resource?.text ?? `[resource ${item.resource?.uri ?? ""}]`;
      if (item.type === "resource_link") return `[resource ${item.uri ?? ""}]`;
      return `[${item.type}${item.mimeType ? ` ${item.mimeType}` : ""}]`;
    })
    .join("\n");
}

/** The first `limit` characters, with a note saying how much was cut. */
export function truncate(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n[truncated: the result had ${text.length} characters; the first ${limit} are shown]`;
}
