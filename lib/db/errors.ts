// Prisma errors are matched by code, not class: the SQLite and PostgreSQL clients are separate generated modules.
const codeOf = (e: unknown): string | undefined =>
  typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : undefined;

/** The kind of a driver adapter's error: statements sent to the adapter directly (sql.ts) throw these. */
const kindOf = (e: unknown): unknown =>
  e instanceof Error && e.name === "DriverAdapterError" && typeof e.cause === "object" && e.cause !== null
    ? (e.cause as { kind?: unknown }).kind
    : undefined;

export const isUniqueViolation = (e: unknown) =>
  codeOf(e) === "P2002" || kindOf(e) === "UniqueConstraintViolation";
export const isForeignKeyViolation = (e: unknown) =>
  codeOf(e) === "P2003" || kindOf(e) === "ForeignKeyConstraintViolation";
export const isRecordNotFound = (e: unknown) => codeOf(e) === "P2025";

/** Any failure of the database itself (unreachable, locked, timed out, or a query it rejected). */
export const isStorageError = (e: unknown) =>
  e instanceof Error && (e.name.startsWith("PrismaClient") || e.name === "DriverAdapterError");
