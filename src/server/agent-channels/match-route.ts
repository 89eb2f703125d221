// Which of a channel's routes a request's method and path name: `:name` segments match any one
// segment and become params. A path that some route has but not for this method answers 405.
import type { AgentManifest } from "@/agents/loader/manifest";

type Route = AgentManifest["channels"][number]["routes"][number];

export type RouteMatch =
  | { found: true; route: Route; params: Record<string, string> }
  | { found: false; allowed: string[] };

function matchPath(pattern: string, segments: string[]): Record<string, string> | undefined {
  const parts = pattern.split("/").filter(Boolean);
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    if (part.startsWith(":")) params[part.slice(1)] = segments[i]!;
    else if (part !== segments[i]) return undefined;
  }
  return params;
}

export function matchRoute(routes: Route[], method: string, segments: string[]): RouteMatch {
  const onPath = routes.flatMap((route) => {
    const params = matchPath(route.path, segments);
    return params ? [{ route, params }] : [];
  });
  // A literal segment beats a parameter: /tickets/new before /tickets/:id.
  const literal = (route: Route) => -route.path.split("/").filter((part) => part.startsWith(":")).length;
  const hit = onPath.filter((m) => m.route.method === method).sort((a, b) => literal(b.route) - literal(a.route))[0];
  if (hit) return { found: true, ...hit };
  return { found: false, allowed: [...new Set(onPath.map((m) => m.route.method))] };
}
