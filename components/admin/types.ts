import type { AdminSnapshot, getSessionReview } from "@/lib/admin/session-review";
import type { AdminSession } from "@/lib/db/admin";
import type { AuditEntry } from "@/lib/db/admin-audit";
import type { AdminTreeMessage } from "@/lib/db/admin-review";
import type { AdminUser } from "@/lib/db/admin-users";
import type { MemoryItem } from "@/lib/memory";

// Serializable shapes the admin pages hand to client components, derived from what the queries return (the
// imports are type-only: nothing of lib/db reaches the browser). They are also the JSON of the admin API
// (`/api/admin/…`), which the client components fetch for further pages and mutations.

/** What a value looks like after a JSON round trip: Dates become ISO strings, the rest keeps its shape. */
export type Jsonified<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? Jsonified<U>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;

export type AdminSessionView = Jsonified<AdminSession>;
/** A history message with its place in the message tree (lib/db/admin-review.ts). */
export type AdminMessageView = Jsonified<AdminTreeMessage>;
export type MemoryItemView = Jsonified<MemoryItem>;
export type SnapshotView = Jsonified<AdminSnapshot>;
export type SessionReviewView = Jsonified<Awaited<ReturnType<typeof getSessionReview>>>;
export type AdminUserView = Jsonified<AdminUser>;
export type AuditEntryView = Jsonified<AuditEntry>;

/** JSON round trip: what a server component's data looks like once serialized (Dates → ISO strings). */
export function toView<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
