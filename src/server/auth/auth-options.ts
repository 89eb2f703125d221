// NextAuth configuration for the dashboard: email and password always; GitHub and a generic
// OpenID Connect provider when their variables are set. Sessions are JWTs in an encrypted,
// HTTP-only cookie (Credentials sign-in requires the JWT strategy), expiring after
// AGENTFOLD_SESSION_MAX_AGE_HOURS.
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import type { Provider } from "next-auth/providers/index";
import { authSecret, env, type Env } from "@/env";
import { db } from "@/server/db";
import { AppError } from "@/server/errors";
import { clientAddress, peerAddressHeader, trustedProxies, type TrustedProxies } from "./client-address";
import { linkExternalAccount } from "./link-external-account";
import { signInWithPassword } from "./sign-in-with-password";

const trustedOf = new WeakMap<Env, TrustedProxies>();

/** The client address a sign-in counts under: the peer, or what trusted proxies say (client-address.ts). */
export function signInAddress(headers: Record<string, unknown> | undefined, config: Env): string | undefined {
  const header = (name: string) => (typeof headers?.[name] === "string" ? (headers[name] as string) : undefined);
  let trusted = trustedOf.get(config);
  if (!trusted) trustedOf.set(config, (trusted = trustedProxies(config.AGENTFOLD_TRUSTED_PROXIES)));
  return clientAddress({
    peer: header(peerAddressHeader) || undefined,
    forwardedFor: header("x-forwarded-for"),
    trusted,
  });
}

/** Email and password always; GitHub and OIDC when their variables are set. */
export function providers(config: Env): Provider[] {
  const list: Provider[] = [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, request) {
        try {
          return await signInWithPassword({
            db: db(),
            email: credentials?.email ?? "",
            password: credentials?.password ?? "",
            ip: signInAddress(request?.headers, config),
          });
        } catch (error) {
          // NextAuth hands a thrown message to the sign-in page as `error`; keep it ours.
          throw new Error(error instanceof AppError ? error.message : "sign-in failed; try again");
        }
      },
    }),
  ];
  if (config.GITHUB_ID && config.GITHUB_SECRET) {
    list.push(
      GitHubProvider({
        clientId: config.GITHUB_ID,
        clientSecret: config.GITHUB_SECRET,
        // An email links a GitHub sign-in to an Agentfold user: only the primary, verified one.
        userinfo: {
          url: "https://api.github.com/user",
          async request({ client, tokens }) {
            const profile = await client.userinfo(tokens.access_token!);
            const response = await fetch("https://api.github.com/user/emails", {
              headers: { Authorization: `token ${tokens.access_token}` },
            });
            const emails = response.ok
              ? ((await response.json()) as { email: string; primary: boolean; verified: boolean }[])
              : [];
            return { ...profile, email: emails.find((e) => e.primary && e.verified)?.email };
          },
        },
      }),
    );
  }
  if (config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET) {
    list.push({
      id: "oidc",
      name: config.OIDC_NAME,
      type: "oauth",
      wellKnown: `${config.OIDC_ISSUER.replace(/\/$/, "")}/.well-known/openid-configuration`,
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET,
      authorization: { params: { scope: "openid email profile" } },
      idToken: true,
      checks: ["pkce", "state"],
      // An email the identity provider has not verified never links to an Agentfold user.
      profile: (profile: { sub: string; email?: string; email_verified?: boolean; name?: string }) => ({
        id: profile.sub,
        email: profile.email_verified === true ? profile.email : null,
        name: profile.name,
      }),
    });
  }
  return list;
}

export function authOptions(): NextAuthOptions {
  return {
    secret: authSecret(env()),
    session: { strategy: "jwt", maxAge: Math.round(env().AGENTFOLD_SESSION_MAX_AGE_HOURS * 3600) },
    pages: { signIn: "/signin", error: "/signin" },
    providers: providers(env()),
    callbacks: {
      // External accounts map onto our users by verified email (see link-external-account.ts).
      async signIn({ user, account }) {
        if (!account || account.provider === "credentials") return true;
        const linked = await linkExternalAccount({
          db: db(),
          provider: account.provider,
          providerAccountId: account.providerAccountId,
          email: user.email,
          name: user.name,
        });
        return linked ? true : "/signin?error=NoAccount";
      },
      async jwt({ token, user, account }) {
        if (user && account && account.provider !== "credentials") {
          const own = await db().account.findUnique({
            where: {
              provider_providerAccountId: { provider: account.provider, providerAccountId: account.providerAccountId },
            },
            select: { userId: true },
          });
          if (own) token.sub = own.userId;
        } else if (user) {
          token.sub = user.id;
        }
        return token;
      },
      async session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub } };
      },
    },
  };
}
