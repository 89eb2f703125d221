import path from "node:path";
import { describe, expect, it } from "vitest";
import { srcDir } from "@/testing/source-imports";
import { serverValueImports } from "./boundaries";

const component = path.join(srcDir, "components", "dashboard", "example.tsx");
const found = (text: string) => serverValueImports(component, text).map((v) => `${v.line}:${v.specifier}`);

describe("the client/server import boundary", () => {
  it("lets type-only imports and re-exports of src/server through", () => {
    const text = [
      'import type { Role } from "@/server/db";',
      'import { type AppError } from "@/server/errors";',
      'export type { SessionSummary } from "@/server/sessions/schema";',
      'type T = import("@/server/errors").AppError;',
    ].join("\n");
    expect(found(text)).toEqual([]);
  });

  it("reports value imports, however they are spelled", () => {
    const text = [
      'import { AppError } from "@/server/errors";',
      'import { type Role, isAtLeast } from "@/shared/roles";',
      'import db from "../../server/db";',
      'export { errorBodySchema } from "@/server/errors";',
      'const later = await import("@/server/errors");',
      'import "@/server/errors";',
    ].join("\n");
    expect(found(text)).toEqual([
      "1:@/server/errors",
      "3:../../server/db",
      "4:@/server/errors",
      "5:@/server/errors",
      "6:@/server/errors",
    ]);
  });
});
