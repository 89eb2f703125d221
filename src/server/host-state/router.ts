// tRPC: an agent's memory journal and deployment files, read-only, for the dashboard's agent page.
// Members and up: the journal quotes every chat session's messages, which a viewer may not read
// (docs/dashboard.md, "Teams and roles"), while a member's chats can read it through the agent.
import { getAgentId } from "@/server/agents/get-agent-id";
import { router, teamProcedure } from "@/server/trpc/init";
import { getAgentFile } from "./get-agent-file";
import { listAgentFiles } from "./list-agent-files";
import { readMemoryJournal } from "./read-memory-journal";
import {
  agentFileInputSchema,
  agentFileListSchema,
  agentFileSchema,
  agentFilesInputSchema,
  memoryInputSchema,
  memoryJournalSchema,
} from "./schema";

export const hostStateRouter = router({
  memory: teamProcedure("member")
    .input(memoryInputSchema)
    .output(memoryJournalSchema)
    .query(async ({ ctx, input }) =>
      readMemoryJournal({
        db: ctx.db,
        agentId: await getAgentId({ db: ctx.db, slug: input.slug, teamId: ctx.team.id }),
        limit: input.limit,
      }),
    ),
  files: teamProcedure("member")
    .input(agentFilesInputSchema)
    .output(agentFileListSchema)
    .query(async ({ ctx, input }) =>
      listAgentFiles({ db: ctx.db, agentId: await getAgentId({ db: ctx.db, slug: input.slug, teamId: ctx.team.id }) }),
    ),
  file: teamProcedure("member")
    .input(agentFileInputSchema)
    .output(agentFileSchema)
    .query(async ({ ctx, input }) =>
      getAgentFile({
        db: ctx.db,
        agentId: await getAgentId({ db: ctx.db, slug: input.slug, teamId: ctx.team.id }),
        path: input.path,
      }),
    ),
});
