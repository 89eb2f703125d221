// Reads the dashboard sign-in cookie (NextAuth's encrypted JWT) from request headers. The same
// reader serves tRPC and the /v1 routes, so a signed-in person uses the API as themselves.
import { decode } from "next-auth/jwt";
import { authSecret, env } from "@/env";

const cookieNames = ["__Secure-next-auth.session-token", "next-auth.session-token"];

function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0) cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return cookies;
}

/** The cookie's value, joined from NextAuth's `.0`, `.1` … chunks when it was split. */
function sessionCookie(cookies: Map<string, string>): string | undefined {
  for (const name of cookieNames) {
    if (cookies.has(name)) return cookies.get(name);
    const chunks: string[] = [];
    for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
    if (chunks.length > 0) return chunks.join("");
  }
  return undefined;
}

export function hasSessionCookie(headers: Headers): boolean {
  return sessionCookie(parseCookies(headers.get("cookie"))) !== undefined;
}

/** The signed-in user's id, or null when there is no valid, unexpired sign-in. */
export async function readSessionUserId(headers: Headers): Promise<string | null> {
  const raw = sessionCookie(parseCookies(headers.get("cookie")));
  if (!raw) return null;
  try {
    const payload = await decode({ token: decodeURIComponent(raw), secret: authSecret(env()) });
    return typeof payload?.sub === "string" ? payload.sub : null;
  } catch {
    return null; // tampered, mangled, or sealed with another secret
  }
}
