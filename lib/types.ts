// The domain unions, one source: the Prisma schema's enums (both dialects generate identical ones). Type-only
// exports, so client components may import them without pulling Prisma into the browser bundle.
export type { MessageRole, MessageStatus, Role } from "@/lib/generated/sqlite/enums";
