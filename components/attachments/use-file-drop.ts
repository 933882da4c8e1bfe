"use client";

import { type ClipboardEvent, type DragEvent, useState } from "react";
import type { ComposerAttachments } from "./use-composer-attachments";

/** Drag-and-drop onto the composer and pasting files into its text area. */
export function useFileDrop(files: ComposerAttachments) {
  const [dragging, setDragging] = useState(false);
  const carriesFiles = (e: DragEvent) => Array.from(e.dataTransfer.types).includes("Files");
  return {
    dragging,
    dropProps: {
      onDragOver: (e: DragEvent) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
        setDragging(true);
      },
      onDragLeave: (e: DragEvent) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      },
      onDrop: (e: DragEvent) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        setDragging(false);
        files.add(Array.from(e.dataTransfer.files));
      },
    },
    onPaste: (e: ClipboardEvent) => {
      const pasted = Array.from(e.clipboardData.files);
      if (pasted.length === 0) return;
      // A copied picture comes as a file; copied text (even with a picture beside it) stays text.
      if (!e.clipboardData.types.includes("text/plain")) e.preventDefault();
      files.add(pasted);
    },
  };
}
