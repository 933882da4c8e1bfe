"use client";

import { useEffect, useId, useState } from "react";
import { getSessionModel, listPickableModels, type PickableModel, setSessionModel } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";

/**
 * The conversation's model (PATCH /api/sessions/:id { model }). Shown once there are models to choose between;
 * the next answer, and every one after, comes from the chosen one.
 */
export function ModelPicker({ sessionId, defaultModel }: { sessionId: string; defaultModel: string }) {
  const t = useT("models");
  const errorText = useErrorText();
  const id = useId();
  const [models, setModels] = useState<PickableModel[] | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void Promise.all([listPickableModels(), getSessionModel(sessionId)]).then(
      ([list, current]) => {
        if (!live) return;
        setModels(list);
        setPicked(current);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [sessionId]);

  if (!models || models.length < 2) return null;
  const value = picked && models.some((m) => m.id === picked) ? picked : defaultModel;

  const choose = async (next: string) => {
    const before = picked;
    setPicked(next);
    setProblem(null);
    try {
      await setSessionModel(sessionId, next === defaultModel ? null : next);
    } catch (e) {
      setPicked(before);
      setProblem(t("saveFailed", { error: errorText(e) }));
    }
  };

  return (
    <span className="flex min-w-0 items-center gap-1">
      <label htmlFor={id} className="sr-only">
        {t("picker")}
      </label>
      <select
        id={id}
        value={value}
        title={t("pickerTitle")}
        onChange={(e) => void choose(e.target.value)}
        className="max-w-40 truncate rounded-md border border-zinc-200 bg-white px-2 py-1 text-zinc-800"
        data-testid="model-picker"
      >
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
          </option>
        ))}
      </select>
      {problem && (
        <span role="alert" className="text-xs text-red-700">
          {problem}
        </span>
      )}
    </span>
  );
}
