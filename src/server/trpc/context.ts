// Who is asking, for every tRPC call: the dashboard sign-in cookie, nothing else (bearer tokens
// are for /v1). State-changing calls must come from our own pages.
import { assertSameOrigin } from "@/server/auth/dashboard-caller";
import { readSessionUserId } from "@/server/auth/dashboard-session";
import { db } from "@/server/db";
import type { Context } from "./init";

export async function createContext(request: Request): Promise<Context> {
  const userId = await readSessionUserId(request.headers);
  let isCrossSite = false;
  try {
    assertSameOrigin(request);
  } catch {
    isCrossSite = true;
  }
  const url = new URL(request.url);
  const host = request.headers.get("host") ?? url.host;
  return { db: db(), userId, isCrossSite, origin: `${url.protocol}//${host}` };
}
