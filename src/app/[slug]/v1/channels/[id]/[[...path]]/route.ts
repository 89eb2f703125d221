// ANY /<slug>/v1/channels/<id>/<path> — an agent's own channel routes (docs/agent-folders.md, "Channels")
import { channelHandlers } from "@/server/agent-channels/channel-handlers";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = channelHandlers;
