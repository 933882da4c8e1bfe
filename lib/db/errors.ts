// Prisma errors are matched by code, not class: the SQLite and PostgreSQL clients are separate generated modules.
const codeOf = (e: unknown): string | undefined =>
  typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : undefined;

export const isUniqueViolation = (e: unknown) => codeOf(e) === "P2002";
export const isForeignKeyViolation = (e: unknown) => codeOf(e) === "P2003";
export const isRecordNotFound = (e: unknown) => codeOf(e) === "P2025";

/** Any failure of the database itself (unreachable, locked, timed out, or a query it rejected). */
export const isStorageError = (e: unknown) =>
  e instanceof Error && (e.name.startsWith("PrismaClient") || e.name === "DriverAdapterError");
