// Every entry of the /v1 route table is served by a Next route file, and every route file serves
// entries of the table and nothing else: the walk of src/app matches files to entries both ways.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fastRoutes } from "@/server/web/api-front";
import { handlerOf, routesAt, v1Routes } from "./v1-routes";

const appDir = path.join(process.cwd(), "src", "app");
const methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/** Each route.ts under `src/app/<top>` as the path it serves (`[id]` → `:id`), catch-alls aside. */
function routeFiles(top: string): { file: string; path: string }[] {
  const found: { file: string; path: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      // Catch-alls ([...x], [[...x]]) are not table entries: unknown paths, and agents' channel routes.
      if (entry.isDirectory() && !/^\[\[?\.\.\./.test(entry.name)) walk(full);
      else if (entry.name === "route.ts") {
        const segments = path.relative(appDir, dir).split(path.sep);
        found.push({ file: full, path: `/${segments.map((s) => s.replace(/^\[(.+)\]$/, ":$1")).join("/")}` });
      }
    }
  };
  walk(path.join(appDir, top));
  return found;
}

const files = [...routeFiles("[slug]/v1"), ...routeFiles("v1")];

describe("the /v1 route table", () => {
  it("has a route file exporting each entry's handler, at its path and unslugged at /v1/…", () => {
    const served = new Set(files.map((file) => file.path));
    for (const route of v1Routes) {
      expect(served, `${route.method} ${route.path}`).toContain(route.path);
      if (route.path.startsWith("/:slug/")) expect(served).toContain(route.path.slice("/:slug".length));
    }
  });

  it.each(files.map((file) => [path.relative(appDir, file.file), file] as const))(
    "%s exports exactly the table's handlers for its path",
    async (_, { file, path: routePath }) => {
      const module = (await import(file)) as Record<string, unknown>;
      const exported = methods.filter((method) => method in module);
      const entries = routesAt(routePath);
      expect(exported.sort()).toEqual(entries.map(({ route }) => route.method).sort());
      for (const { route, isUnslugged } of entries) expect(module[route.method]).toBe(handlerOf(route, isUnslugged));
      // The one-line comment names the route: a copied file that serves another path shows here.
      const shown = routePath.replace(/^\/:slug/, "/<slug>");
      expect(fs.readFileSync(file, "utf8").split("\n")[0]).toContain(` ${shown}`);
    },
  );

  it("declares a params schema with exactly the path's parameters", () => {
    for (const route of v1Routes) {
      const inPath = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]).sort();
      expect(Object.keys(route.params?.shape ?? {}).sort(), `${route.method} ${route.path}`).toEqual(inPath);
    }
  });

  it("names each operation once, and each method and path once", () => {
    expect(new Set(v1Routes.map((route) => route.name)).size).toBe(v1Routes.length);
    expect(new Set(v1Routes.map((route) => `${route.method} ${route.path}`)).size).toBe(v1Routes.length);
  });

  it("gives the fast API front exactly its hot entries", async () => {
    const hot = v1Routes.filter((route) => route.isHot);
    expect(fastRoutes.map((route) => `${route.method} /${route.segments.join("/")}`)).toEqual(
      hot.map((route) => `${route.method} ${route.path}`),
    );
    for (const [i, route] of fastRoutes.entries()) expect(await route.load()).toBe(hot[i]!.handler);
    expect(hot.map((route) => route.name).sort()).toEqual(["followUpSession", "startSession", "streamSession"]);
  });
});
