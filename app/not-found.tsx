import Link from "next/link";

export default function NotFound() {
  return (
    <main
      id="main"
      tabIndex={-1}
      className="flex min-h-full flex-col items-center justify-center gap-3 p-6 text-center"
    >
      <h1 className="text-2xl font-semibold" data-testid="not-found">
        Not found
      </h1>
      <p className="text-zinc-600">This page does not exist, or it is not yours to see.</p>
      <Link href="/" className="underline">
        Back to your conversations
      </Link>
    </main>
  );
}
