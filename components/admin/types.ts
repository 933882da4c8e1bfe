// Serializable shapes the admin pages hand to client components (dates as ISO strings). They mirror the JSON of
// the admin API (`/api/admin/…`), which the client components fetch for further pages and mutations.

export interface OwnerView {
  id: string;
  email: string;
  name: string;
}

export interface AdminSessionView {
  id: string;
  title: string;
  owner: OwnerView;
  messageCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface ToolCallView {
  id: string;
  name: string;
  arguments: string;
}

export interface AdminMessageView {
  id: string;
  seq: number;
  role: "system" | "user" | "assistant" | "tool";
  text: string;
  status: "complete" | "streaming" | "interrupted" | "failed";
  model: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  toolCallId: string | null;
  toolCalls: ToolCallView[];
  imageUrls: string[];
  createdAt: string;
}

export interface MemoryItemView {
  role: "system" | "user" | "assistant" | "tool";
  text: string;
  seq?: number;
  summary?: boolean;
  toolCalls?: ToolCallView[];
  toolCallId?: string;
  imageUrls?: string[];
}

export interface SnapshotView {
  items: MemoryItemView[];
  policy: string;
  throughSeq: number;
  version: number;
  updatedAt: string;
  current: boolean;
  error?: string;
}

export interface SessionReviewView {
  session: AdminSessionView & { turnInProgress: boolean };
  messages: AdminMessageView[];
  hasMore: boolean;
  snapshot: SnapshotView | null;
  /** The memory policy in force (the next turn's). */
  policy: string;
  nextContextSeqs: number[];
}

export interface AdminUserView {
  id: string;
  email: string;
  name: string;
  role: "USER" | "ADMIN";
  disabledAt: string | null;
  createdAt: string;
  sessionCount: number;
  messageCount: number;
}

export interface AuditEntryView {
  id: string;
  action: string;
  targetType: string;
  targetId: string;
  details: unknown;
  createdAt: string;
  actor: OwnerView | null;
}

/** JSON round trip: what a server component's data looks like once serialized (Dates → ISO strings). */
export function toView<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
