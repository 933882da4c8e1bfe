export interface Receipt {
  sessionId?: string;
  userId?: string;
  deleted: Record<string, number>;
}

// What each kind of record is called for people (the receipt's keys are the server's table names).
const words: Record<string, [one: string, many: string]> = {
  User: ["account", "accounts"],
  ChatSession: ["conversation", "conversations"],
  ChatMessage: ["message", "messages"],
  MemorySnapshot: ["memory snapshot", "memory snapshots"],
  TurnContext: ["recorded context", "recorded contexts"],
  ApiKey: ["API key", "API keys"],
  MemoryFact: ["memory", "memories"],
  Attachment: ["attachment", "attachments"],
  AttachmentBytes: ["byte of files freed", "bytes of files freed"],
};

function counted(kind: string, count: number): string {
  const [one, many] = words[kind] ?? [kind, kind];
  return `${count} ${count === 1 ? one : many}`;
}

// Kinds only some conversations have: named in the sentence only when something of theirs was deleted.
const occasional = new Set(["MemoryFact", "Attachment"]);

function sized(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * "4 messages, 1 memory snapshot and 2 recorded contexts" — every kind (zero counts included, except memories and
 * attachments when there were none); the bytes freed go with the attachments.
 */
export function receiptSentence(deleted: Record<string, number>): string {
  const parts = Object.entries(deleted)
    .filter(([kind, count]) => kind !== "AttachmentBytes" && !(occasional.has(kind) && count === 0))
    .map(([kind, count]) =>
      kind === "Attachment"
        ? `${counted(kind, count)} (${sized(deleted.AttachmentBytes ?? 0)})`
        : counted(kind, count),
    );
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

export function ReceiptView({ receipt }: { receipt: Receipt }) {
  return (
    <div data-testid="deletion-receipt" className="space-y-1 text-sm">
      <p className="font-medium" data-testid="receipt-sentence">
        Deleted for good: {receiptSentence(receipt.deleted)}.
      </p>
      <ul className="text-zinc-600">
        {Object.entries(receipt.deleted).map(([kind, count]) => (
          <li key={kind} className="flex justify-between border-t border-zinc-200 py-1">
            <span>{(words[kind] ?? [kind, kind])[1]}</span>
            <span className="tabular-nums" data-testid={`receipt-${kind}`}>
              {count}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
