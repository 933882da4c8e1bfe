"use client";

import { Button } from "@/components/ui/button";

export default function ErrorPage({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main
      id="main"
      tabIndex={-1}
      className="flex min-h-full flex-col items-center justify-center gap-3 p-6 text-center"
      role="alert"
    >
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="max-w-md text-zinc-600">
        Recall could not load this page — usually because the database is not reachable. Nothing you wrote has
        been lost.
      </p>
      <Button onClick={reset}>Try again</Button>
    </main>
  );
}
