"use client";

import { useCallback } from "react";
import { useFormat, useT } from "@/lib/i18n/client";

/** 2048 → "2 KB", in the reader's language. */
export function useFileSize(): (bytes: number) => string {
  const t = useT("attachments");
  const format = useFormat();
  return useCallback(
    (bytes: number) => {
      if (bytes < 1024) return t("size.bytes", { n: format.number(bytes) });
      if (bytes < 1024 * 1024) return t("size.kb", { n: format.number(Math.round(bytes / 1024)) });
      return t("size.mb", { n: format.number(bytes / (1024 * 1024), { maximumFractionDigits: 1 }) });
    },
    [t, format],
  );
}
