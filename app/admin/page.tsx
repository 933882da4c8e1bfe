export const dynamic = "force-dynamic";

export default function AdminHome() {
  return (
    <section>
      <h1 className="text-2xl font-semibold" data-testid="admin-title">
        Admin console
      </h1>
      <p className="mt-2 text-zinc-600">Review sessions and messages, and delete what must go.</p>
    </section>
  );
}
