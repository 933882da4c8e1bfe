// The administrator's one-time password, framed so that it stands out from the server's own lines.

/** `lines` in a frame, each padded to the longest. */
export function box(lines: string[]): string {
  const width = Math.max(...lines.map((l) => l.length));
  const edge = "─".repeat(width + 2);
  return [`┌${edge}┐`, ...lines.map((l) => `│ ${l.padEnd(width)} │`), `└${edge}┘`].join("\n");
}

export function adminLines({ email, password }: { email: string; password: string }) {
  return [
    `Administrator: ${email}`,
    `Password:      ${password}`,
    "Shown once. Set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own.",
  ];
}
