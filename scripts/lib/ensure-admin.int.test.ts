import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/auth/password";
import { db } from "@/lib/db/client";
import { ensureAdmin } from "./ensure-admin";

// The integration database is shared by the files of a run, so each case names its own admin by ADMIN_EMAIL,
// except the "no ADMIN_EMAIL" case, which only asserts what holds whatever admins exist.

afterAll(async () => {
  await db.$disconnect();
});

const email = () => `admin-${randomUUID()}@example.test`;

describe("ensureAdmin (npm run setup)", () => {
  it("creates the admin from ADMIN_EMAIL, ADMIN_PASSWORD and ADMIN_NAME", async () => {
    const address = email();
    const result = await ensureAdmin(
      db,
      { ADMIN_EMAIL: address.toUpperCase(), ADMIN_PASSWORD: "s3cret-pass", ADMIN_NAME: "Root" },
      { bcryptCost: 4 },
    );
    expect(result).toEqual({ action: "created", email: address });
    const user = await db.user.findUniqueOrThrow({ where: { email: address } });
    expect(user).toMatchObject({ role: "ADMIN", name: "Root" });
    expect(await verifyPassword("s3cret-pass", user.passwordHash)).toBe(true);
  });

  it("generates a password when none is set, and returns it once", async () => {
    const address = email();
    const result = await ensureAdmin(db, { ADMIN_EMAIL: address, ADMIN_NAME: "Admin" }, { bcryptCost: 4 });
    if (result.action !== "created" || !result.generatedPassword)
      throw new Error("expected a generated password");
    expect(result.generatedPassword.length).toBeGreaterThanOrEqual(16);
    const user = await db.user.findUniqueOrThrow({ where: { email: address } });
    expect(await verifyPassword(result.generatedPassword, user.passwordHash)).toBe(true);
    // Running again changes nothing and reveals nothing.
    expect(await ensureAdmin(db, { ADMIN_EMAIL: address, ADMIN_NAME: "Admin" })).toEqual({
      action: "existing",
      email: address,
    });
  });

  it("promotes an existing user named by ADMIN_EMAIL without touching their password", async () => {
    const address = email();
    await db.user.create({ data: { email: address, name: "U", passwordHash: "kept" } });
    expect(await ensureAdmin(db, { ADMIN_EMAIL: address, ADMIN_NAME: "Admin" })).toEqual({
      action: "promoted",
      email: address,
    });
    expect(await db.user.findUniqueOrThrow({ where: { email: address } })).toMatchObject({
      role: "ADMIN",
      passwordHash: "kept",
    });
  });

  it("without ADMIN_EMAIL keeps whichever admin exists", async () => {
    const before = await db.user.count();
    const result = await ensureAdmin(db, { ADMIN_NAME: "Admin" });
    expect(result.action).toBe("kept");
    expect(await db.user.count()).toBe(before);
  });
});
