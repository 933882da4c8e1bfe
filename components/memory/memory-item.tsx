"use client";

import { FactHistory } from "./fact-history";
import { MemoryEditForm } from "./memory-edit-form";
import { MemoryFact } from "./memory-fact";
import type { MemoryView } from "./types";
import { useFactEdit } from "./use-fact-edit";

/**
 * One fact in the list: read, or edited inline (Enter saves, Escape cancels, and focus goes back to the Edit button
 * either way).
 */
export function MemoryItem({
  memory,
  onSaved,
  onDelete,
}: {
  memory: MemoryView;
  /** The text was saved: read the list again. */
  onSaved: () => Promise<unknown>;
  onDelete: (memory: MemoryView) => void;
}) {
  const edit = useFactEdit(memory, onSaved);
  return (
    <li
      className="px-3 py-3 text-sm sm:px-4"
      data-testid="memory-item"
      data-memory-id={memory.id}
      data-replaced={memory.supersededById ? "true" : undefined}
    >
      {edit.editing ? (
        <MemoryEditForm edit={edit} />
      ) : (
        <>
          <MemoryFact memory={memory} editButton={edit.editButton} onEdit={edit.start} onDelete={onDelete} />
          <FactHistory memoryId={memory.id} onSaved={onSaved} />
        </>
      )}
    </li>
  );
}
