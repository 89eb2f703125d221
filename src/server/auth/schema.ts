// Inputs and outputs of the sign-in pages' procedures, before anyone is signed in.
import { z } from "zod";

/** `providers`: the OAuth providers configured on this instance (passwords are always offered). */
export const authStatusSchema = z.object({
  isEmpty: z.boolean(),
  isSignedIn: z.boolean(),
  providers: z.array(z.object({ id: z.string(), name: z.string() })),
});

export type AuthStatus = z.infer<typeof authStatusSchema>;

// Email and password rules are checked by signUp, with messages the form shows.
export const signUpInputSchema = z.object({
  email: z.string(),
  password: z.string(),
  name: z.string().max(80).optional(),
  teamName: z.string().max(80).optional(),
  inviteToken: z.string().optional(),
});

export const signedUpSchema = z.object({ userId: z.string(), teamSlug: z.string(), isInstanceAdmin: z.boolean() });
