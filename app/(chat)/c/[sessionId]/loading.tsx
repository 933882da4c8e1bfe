export default function Loading() {
  return (
    <div className="flex flex-1 items-center justify-center text-zinc-500" role="status">
      Loading conversation…
    </div>
  );
}
