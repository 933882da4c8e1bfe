import "server-only";
import { AppError } from "@/lib/errors";
import { db, type TxOption } from "./client";
import { queryRows } from "./sql";

// The user's instructions ("About me", "How to answer": User.aboutMe / howToAnswer, "" when unset) and a
// conversation's own system prompt (ChatSession.systemPrompt, null when unset). Every query names its user.

export interface UserInstructions {
  aboutMe: string;
  howToAnswer: string;
}

const instructionsSelect = { aboutMe: true, howToAnswer: true } as const;
const accountGone = () => new AppError("not_found", "This account does not exist any more.");
const noSession = () => new AppError("not_found", "This conversation does not exist or is not yours.");

export async function getUserInstructions(
  { userId }: { userId: string },
  { tx = db }: TxOption = {},
): Promise<UserInstructions> {
  const user = await tx.user.findUnique({ where: { id: userId }, select: instructionsSelect });
  if (!user) throw accountGone();
  return user;
}

export async function updateUserInstructions(
  { userId, instructions }: { userId: string; instructions: Partial<UserInstructions> },
  { tx = db }: TxOption = {},
): Promise<UserInstructions> {
  const [user] = await tx.user.updateManyAndReturn({
    where: { id: userId },
    data: instructions,
    select: instructionsSelect,
  });
  if (!user) throw accountGone();
  return user;
}

async function getSessionSystemPromptForUser(
  { sessionId, userId }: { sessionId: string; userId: string },
  { tx = db }: TxOption = {},
): Promise<string | null> {
  const row = await tx.chatSession.findFirst({
    where: { id: sessionId, userId },
    select: { systemPrompt: true },
  });
  if (!row) throw noSession();
  return row.systemPrompt;
}

export async function setSessionSystemPromptForUser(
  { sessionId, userId, systemPrompt }: { sessionId: string; userId: string; systemPrompt: string | null },
  { tx = db }: TxOption = {},
): Promise<void> {
  const { count } = await tx.chatSession.updateMany({
    where: { id: sessionId, userId },
    data: { systemPrompt },
  });
  if (count === 0) throw noSession();
}

/**
 * What a turn sends after the deployment's system prompt: the user's instructions, the project's (decision 036) and
 * the conversation's system prompt, in one statement (the session row joined to its user). Inside the turn's transaction, after the lease,
 * so the session is the caller's; null if it is not.
 */
export async function getTurnInstructions(
  { sessionId, userId }: { sessionId: string; userId: string },
  { tx = db }: TxOption = {},
): Promise<
  | (UserInstructions & {
      systemPrompt: string | null;
      project: { id: string; name: string; instructions: string } | null;
    })
  | null
> {
  // Written out (sql.ts): every turn reads it. Prisma sent three statements for the nested select.
  const [row] = await queryRows<{
    systemPrompt: string | null;
    aboutMe: string;
    howToAnswer: string;
    projectId: string | null;
    projectName: string | null;
    projectInstructions: string | null;
  }>(
    tx,
    `SELECT s."systemPrompt", u."aboutMe", u."howToAnswer", p."id" AS "projectId", p."name" AS "projectName",
            p."instructions" AS "projectInstructions"
     FROM "ChatSession" s
     JOIN "User" u ON u."id" = s."userId"
     LEFT JOIN "Project" p ON p."id" = s."projectId"
     WHERE s."id" = ? AND s."userId" = ?`,
    [sessionId, userId],
  );
  if (!row) return null;
  return {
    systemPrompt: row.systemPrompt,
    aboutMe: row.aboutMe,
    howToAnswer: row.howToAnswer,
    project:
      row.projectId === null
        ? null
        : { id: row.projectId, name: row.projectName ?? "", instructions: row.projectInstructions ?? "" },
  };
}

/** A session row as the API returns it, with its system prompt (read by the session's id and its user). */
export async function withSystemPrompt<S extends { id: string }>(
  session: S,
  userId: string,
  { tx = db }: TxOption = {},
): Promise<S & { systemPrompt: string | null }> {
  return {
    ...session,
    systemPrompt: await getSessionSystemPromptForUser({ sessionId: session.id, userId }, { tx }),
  };
}

/** An import's instructions: each is written only where the account has none, never over the user's own. */
export async function fillEmptyInstructions(
  { userId, instructions }: { userId: string; instructions: UserInstructions },
  { tx = db }: TxOption = {},
): Promise<void> {
  for (const key of ["aboutMe", "howToAnswer"] as const) {
    const text = instructions[key];
    if (text) await tx.user.updateMany({ where: { id: userId, [key]: "" }, data: { [key]: text } });
  }
}
