"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { type AdminModel, saveAdminModel } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";

const inputClass =
  "mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 shadow-sm focus:border-zinc-900 focus:outline-none focus:ring-1 focus:ring-zinc-900";

/** The API body of the form: an empty key keeps the stored one (it is write-only). */
function bodyOf(form: FormData): Record<string, unknown> {
  const text = (k: string) => String(form.get(k) ?? "").trim();
  const apiKey = text("apiKey");
  return {
    name: text("name"),
    provider: text("provider"),
    baseUrl: text("baseUrl") || null,
    modelId: text("modelId"),
    contextTokens: Number(text("contextTokens")),
    vision: form.get("vision") === "on",
    tools: form.get("tools") === "on",
    enabled: form.get("enabled") === "on",
    ...(apiKey ? { apiKey } : {}),
  };
}

/** Adds a model (no `model`) or edits one; calls `onSaved` with what the API answered. */
export function ModelForm({
  model,
  onSaved,
  onCancel,
}: {
  model?: AdminModel;
  onSaved: (m: AdminModel) => void;
  onCancel: () => void;
}) {
  const t = useT("models");
  const errorText = useErrorText();
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(form: FormData) {
    setPending(true);
    setError(null);
    try {
      onSaved(await saveAdminModel(model?.id ?? null, bodyOf(form)));
    } catch (e) {
      setError(t("failed", { message: errorText(e) }));
    } finally {
      setPending(false);
    }
  }

  const field = (name: string, label: string, props: React.InputHTMLAttributes<HTMLInputElement>) => (
    <label htmlFor={`${id}-${name}`} className="block text-sm font-medium text-zinc-700">
      {label}
      <input id={`${id}-${name}`} name={name} className={inputClass} {...props} />
    </label>
  );
  const check = (name: string, label: string, on: boolean) => (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" name={name} defaultChecked={on} />
      {label}
    </label>
  );

  return (
    <form
      action={(f) => void submit(f)}
      className="space-y-3 rounded-md border border-zinc-300 p-4"
      aria-labelledby={`${id}-title`}
      data-testid="model-form"
    >
      <h2 id={`${id}-title`} className="font-semibold">
        {model ? t("formEdit", { name: model.name }) : t("formAdd")}
      </h2>
      {field("name", t("name"), { defaultValue: model?.name ?? "", required: true })}
      {field("provider", t("provider"), { defaultValue: model?.provider ?? "", required: true })}
      {field("baseUrl", t("baseUrl"), { defaultValue: model?.baseUrl ?? "", type: "url" })}
      {field("apiKey", t("apiKey"), { type: "password", autoComplete: "off", defaultValue: "" })}
      {model?.hasApiKey && <p className="text-xs text-zinc-600">{t("apiKeyKept")}</p>}
      {field("modelId", t("modelId"), { defaultValue: model?.modelId ?? "", required: true })}
      {field("contextTokens", t("contextTokens"), {
        type: "number",
        min: 2000,
        defaultValue: model?.contextTokens ?? 128000,
      })}
      <div className="flex flex-wrap gap-4">
        {check("vision", t("vision"), model?.vision ?? false)}
        {check("tools", t("tools"), model?.tools ?? true)}
        {check("enabled", t("enabled"), model?.enabled ?? true)}
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" disabled={pending} data-testid="model-save">
          {t("save")}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t("cancel")}
        </Button>
      </div>
    </form>
  );
}
