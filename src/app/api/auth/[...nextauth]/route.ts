// GET|POST /api/auth/* — NextAuth: sign in, sign out, session, CSRF token, OAuth callbacks
import NextAuth from "next-auth";
import { authOptions } from "@/server/auth/auth-options";

export const dynamic = "force-dynamic";

async function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(authOptions())(request, context);
}

export { handler as GET, handler as POST };
