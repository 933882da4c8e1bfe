"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { type InstructionsView, saveInstructions } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";
import { InstructionField } from "./instruction-field";

// Settings → Instructions: "About me" and "How to answer", sent after the server's system prompt in every turn.

export function InstructionsForm({ initial }: { initial: InstructionsView }) {
  const t = useT("instructions");
  const errorText = useErrorText();
  const [values, setValues] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setFailure(null);
    setDone(false);
    setSaving(true);
    try {
      setValues(await saveInstructions(values));
      setDone(true);
    } catch (err) {
      setFailure(t("failed", { reason: errorText(err) }));
    } finally {
      setSaving(false);
    }
  }

  const change = (key: keyof InstructionsView) => (value: string) => {
    setDone(false);
    setValues((v) => ({ ...v, [key]: value }));
  };

  return (
    <form onSubmit={submit} className="space-y-5" aria-label={t("title")} data-testid="instructions-form">
      <InstructionField
        id="about-me"
        label={t("aboutMe")}
        hint={t("aboutMeHint")}
        value={values.aboutMe}
        onChange={change("aboutMe")}
        testId="instructions-about-me"
      />
      <InstructionField
        id="how-to-answer"
        label={t("howToAnswer")}
        hint={t("howToAnswerHint")}
        value={values.howToAnswer}
        onChange={change("howToAnswer")}
        testId="instructions-how-to-answer"
      />
      {failure && (
        <p
          role="alert"
          className="rounded-md bg-red-50 p-3 text-sm text-red-800"
          data-testid="instructions-error"
        >
          {failure}
        </p>
      )}
      {done && (
        <p
          role="status"
          className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900"
          data-testid="instructions-saved"
        >
          {t("saved")}
        </p>
      )}
      <Button type="submit" disabled={saving} data-testid="instructions-submit">
        {saving ? t("saving") : t("save")}
      </Button>
    </form>
  );
}
