// ANY /v1/channels/<id>/<path> — the single agent's channel routes (docs/api.md, "Single-agent local mode")
import { unsluggedChannelHandlers } from "@/server/agent-channels/channel-handlers";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE } = unsluggedChannelHandlers;
