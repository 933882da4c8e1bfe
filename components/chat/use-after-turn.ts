"use client";

import { useEffect, useRef } from "react";
import { focusComposer, focusIsFree } from "./focus";

/**
 * What follows the end of every turn: memory is read again (it moves with every answer), and focus goes back to
 * the composer unless the user has moved it somewhere on purpose meanwhile.
 */
export function useAfterTurn(streaming: boolean, revalidateMemory: () => void) {
  useEffect(() => {
    if (!streaming) revalidateMemory();
  }, [streaming, revalidateMemory]);
  const wasStreaming = useRef(false);
  useEffect(() => {
    if (wasStreaming.current && !streaming && focusIsFree()) focusComposer();
    wasStreaming.current = streaming;
  }, [streaming]);
}
