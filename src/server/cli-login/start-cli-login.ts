// The CLI starts a login: a secret it polls with (only its SHA-256 is stored) and a short code a
// person approves on the dashboard. Anyone may start one, so expired ones are swept here and the
// number waiting at once is bounded.
import crypto from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/errors";
import { loginTtlMs, pollIntervalSeconds } from "./schema";

/** Consonants only: no words, no 0/O or 1/I to misread. 20^8 codes. */
const codeLetters = "BCDFGHJKLMNPQRSTVWXZ";
const maxWaiting = 1000;

export const hashLoginSecret = (secret: string) => crypto.createHash("sha256").update(secret).digest("hex");

function newCode(): string {
  const letters = Array.from({ length: 8 }, () => codeLetters[crypto.randomInt(codeLetters.length)]).join("");
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

export async function startCliLogin(options: { db: PrismaClient; hostname: string; now?: Date }) {
  const { db, hostname, now = new Date() } = options;
  await db.cliLogin.deleteMany({ where: { expiresAt: { lt: now } } });
  const waiting = await db.cliLogin.count({ where: { approvedAt: null, deniedAt: null } });
  if (waiting >= maxWaiting)
    throw new AppError("rate_limited", "too many logins are waiting; try again in a few minutes");
  const requestId = `clr_${crypto.randomBytes(32).toString("base64url")}`;
  const expiresAt = new Date(now.getTime() + loginTtlMs);
  for (let attempt = 0; ; attempt++) {
    const code = newCode();
    try {
      await db.cliLogin.create({
        data: { secretHash: hashLoginSecret(requestId), code, hostname, expiresAt },
        select: { id: true },
      });
      return { requestId, code, expiresAt: expiresAt.toISOString(), intervalSeconds: pollIntervalSeconds };
    } catch (error) {
      // A code another waiting login holds: draw again.
      if ((error as { code?: string }).code !== "P2002" || attempt >= 3) throw error;
    }
  }
}
