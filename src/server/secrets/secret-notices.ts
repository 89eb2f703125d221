// The signal that an agent's secrets changed: NOTIFY on agentfold_secrets with the agent id as
// its payload, sent by the statement that made the change (so it goes out at its commit, never
// before and never for a rolled-back change). Worker processes' secret readers drop what they keep.
import { z } from "zod";

export const secretsChannel = "agentfold_secrets";

export const secretNoticeSchema = z.string().min(1).describe("the id of the agent whose secrets changed");
