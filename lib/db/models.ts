import "server-only";
import { AppError } from "@/lib/errors";
import { db, type TxOption } from "./client";
import { isUniqueViolation } from "./errors";
import { inTx } from "./transaction";

// Models configured by admins (docs/decisions/032-models.md) and each conversation's pick. The API key arrives
// and leaves sealed (lib/models/registry.ts seals and opens it); audit entries hold ids and field names only.

export interface LlmModelRow {
  id: string;
  name: string;
  provider: string;
  baseUrl: string | null;
  apiKeySealed: string | null;
  modelId: string;
  contextTokens: number;
  vision: boolean;
  tools: boolean;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type LlmModelData = Omit<LlmModelRow, "id" | "createdAt" | "updatedAt">;

const nameTaken = (name: string, cause: unknown) =>
  new AppError("conflict", `A model named ${name} already exists.`, {
    cause,
    details: [{ path: "name", message: "name is taken" }],
  });

const notFound = () => new AppError("not_found", "There is no such model.");

export async function listLlmModels(
  _args: Record<string, never> = {},
  { tx }: TxOption = {},
): Promise<LlmModelRow[]> {
  return (tx ?? db).llmModel.findMany({ orderBy: { name: "asc" } });
}

export async function createLlmModel(
  { actorId, data }: { actorId: string; data: LlmModelData },
  { tx }: TxOption = {},
): Promise<LlmModelRow> {
  try {
    return await inTx({ tx }, async (tx) => {
      const row = await tx.llmModel.create({ data });
      await tx.auditLog.create({
        data: {
          actorId,
          action: "model.create",
          targetType: "LlmModel",
          targetId: row.id,
          details: { apiKey: !!data.apiKeySealed },
        },
      });
      return row;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(data.name, e);
    throw e;
  }
}

export async function updateLlmModel(
  {
    actorId,
    id,
    data,
    fields,
  }: { actorId: string; id: string; data: Partial<LlmModelData>; fields: string[] },
  { tx }: TxOption = {},
): Promise<LlmModelRow> {
  try {
    return await inTx({ tx }, async (tx) => {
      const { count } = await tx.llmModel.updateMany({ where: { id }, data });
      if (count === 0) throw notFound();
      await tx.auditLog.create({
        data: { actorId, action: "model.update", targetType: "LlmModel", targetId: id, details: { fields } },
      });
      return tx.llmModel.findUniqueOrThrow({ where: { id } });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(data.name ?? "", e);
    throw e;
  }
}

export async function deleteLlmModel(
  { actorId, id }: { actorId: string; id: string },
  { tx }: TxOption = {},
): Promise<void> {
  await inTx({ tx }, async (tx) => {
    const { count } = await tx.llmModel.deleteMany({ where: { id } });
    if (count === 0) throw notFound();
    await tx.auditLog.create({
      data: { actorId, action: "model.delete", targetType: "LlmModel", targetId: id, details: {} },
    });
  });
}

/** Sets the conversation's model (null: the default); false when it is not the user's (the caller answers 404). */
export async function setSessionModelForUser(
  { sessionId, userId, model }: { sessionId: string; userId: string; model: string | null },
  { tx }: TxOption = {},
): Promise<boolean> {
  const { count } = await (tx ?? db).chatSession.updateMany({
    where: { id: sessionId, userId },
    data: { model },
  });
  return count > 0;
}
