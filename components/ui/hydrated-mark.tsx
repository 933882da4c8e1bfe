"use client";

import { useEffect } from "react";

/**
 * Marks the document (`<html data-hydrated="true">`) once React has hydrated it. The server renders a conversation
 * with its controls; until the page's script has run they do nothing, so end-to-end tests wait for this mark before
 * they press one (a key pressed on a slow machine before hydration was lost).
 */
export function HydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
