import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import {
  bindMigrationAwareSqlAdapterFactory,
  type ErrorCapturingSqlMigrationAwareDriverAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";

// Drives Prisma's schema engine compiled to WebAssembly (the npm package @prisma/schema-engine-wasm, the engine
// of prisma 7.10.0) through a driver adapter, because the native engine that `prisma migrate` needs cannot be
// downloaded on our machines. See docs/decisions/001-database-and-migrations.md.

type Glue = typeof import("@prisma/schema-engine-wasm/schema_engine_bg") & {
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
};

// The glue module keeps the wasm instance in a module variable, and a test runner may evaluate this file once
// per project while Node shares the glue: keep one instance per process on globalThis, and run one engine at a
// time (sessions interleaving on one instance are not worth the risk).
const shared = globalThis as {
  __recallSchemaEngine?: Promise<typeof SchemaEngine>;
  __recallSchemaEngineQueue?: Promise<unknown>;
  PRISMA_WASM_PANIC_REGISTRY?: PanicRegistry;
};

class PanicRegistry {
  message = "";
  get(): string {
    return this.message;
  }
  set_message(value: string): void {
    this.message = `RuntimeError: ${value}`;
  }
}

/**
 * Node 20 cannot import the package's `.wasm` entry (ESM wasm integration), so load the JS glue and instantiate
 * the wasm ourselves, once per process.
 */
function loadEngine(): Promise<typeof SchemaEngine> {
  shared.__recallSchemaEngine ??= (async () => {
    shared.PRISMA_WASM_PANIC_REGISTRY ??= new PanicRegistry();
    const require = createRequire(__filename);
    const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const glue = (await import("@prisma/schema-engine-wasm/schema_engine_bg")) as Glue;
    const bytes = readFileSync(path.join(path.dirname(gluePath), "schema_engine_bg.wasm"));
    // The engine arms a ~10 s timer after talking to PostgreSQL that would keep the process alive: unref its
    // timers (they still fire while something else keeps the process running).
    const imports: Record<string, unknown> = { ...glue };
    for (const name of Object.keys(imports).filter((k) => k.startsWith("__wbg_setTimeout_"))) {
      const original = imports[name] as (...args: unknown[]) => unknown;
      imports[name] = (...args: unknown[]) => {
        const timer = original(...args) as { unref?: () => void };
        timer?.unref?.();
        return timer;
      };
    }
    const { instance } = await WebAssembly.instantiate(bytes, {
      "./schema_engine_bg.js": imports as WebAssembly.ModuleImports,
    });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue.SchemaEngine;
  })();
  return shared.__recallSchemaEngine;
}

/** Runs `fn` after every engine session started before it has finished. */
function serialized<T>(fn: () => Promise<T>): Promise<T> {
  const previous = shared.__recallSchemaEngineQueue ?? Promise.resolve();
  const run = previous.then(fn, fn);
  shared.__recallSchemaEngineQueue = run.catch(() => undefined);
  return run;
}

export const NO_FILTERS = { externalTables: [], externalEnums: [] };

/** Turns the engine's `External error id#N` into the driver's own error message. */
function explain(error: unknown, adapter: ErrorCapturingSqlMigrationAwareDriverAdapterFactory): Error {
  const raw =
    error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error);
  const panic = shared.PRISMA_WASM_PANIC_REGISTRY;
  let message = raw.replace(/External error id#(\d+)/g, (whole, id: string) => {
    const record = adapter.errorRegistry.consumeError(Number(id));
    if (!record) return whole;
    const e = record.error as { message?: string; cause?: { originalMessage?: string; message?: string } };
    return e.cause?.originalMessage ?? e.cause?.message ?? e.message ?? String(record.error);
  });
  if (panic?.message) {
    message += `\n${panic.message}`;
    panic.message = "";
  }
  return new Error(message, { cause: error });
}

export type EngineSession = {
  engine: SchemaEngine;
  /** Runs one engine call, translating driver errors into readable ones. */
  call<T>(fn: (engine: SchemaEngine) => Promise<T>): Promise<T>;
};

/**
 * Starts an engine for one schema (whose provider decides the SQL dialect) and one adapter factory, runs `fn`,
 * then frees the engine.
 */
export function withSchemaEngine<T>(
  schema: { path: string; content: string },
  factory: SqlMigrationAwareDriverAdapterFactory & { close(): Promise<void> },
  fn: (session: EngineSession) => Promise<T>,
): Promise<T> {
  return serialized(() => runEngine(schema, factory, fn));
}

async function runEngine<T>(
  schema: { path: string; content: string },
  factory: SqlMigrationAwareDriverAdapterFactory & { close(): Promise<void> },
  fn: (session: EngineSession) => Promise<T>,
): Promise<T> {
  const Engine = await loadEngine();
  const adapter = bindMigrationAwareSqlAdapterFactory(factory);
  const log = (line: string) => {
    if (process.env.DEBUG_SCHEMA_ENGINE) console.error(`[schema-engine] ${line}`);
  };
  let engine: SchemaEngine;
  try {
    engine = await Engine.new({ datamodels: [[schema.path, schema.content]] }, log, adapter);
  } catch (error) {
    await factory.close();
    throw explain(error, adapter);
  }
  const session: EngineSession = {
    engine,
    async call(f) {
      try {
        return await f(engine);
      } catch (error) {
        throw explain(error, adapter);
      }
    },
  };
  try {
    return await fn(session);
  } finally {
    engine.free();
    // Freeing the engine does not close the driver connections it opened.
    await factory.close();
  }
}
