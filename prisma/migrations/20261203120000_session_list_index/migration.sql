-- CreateIndex
CREATE INDEX "ChatSession_list_idx" ON "ChatSession"("userId", "projectId", "archivedAt", "pinnedAt", "updatedAt", "id");
