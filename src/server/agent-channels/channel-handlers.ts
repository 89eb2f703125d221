// The Next handlers of the channel route files: every method goes to serveChannelRoute. Channel
// routes are the agent's own, so they are not entries of the platform's /v1 table
// (src/server/http/v1-routes.ts) nor in its OpenAPI document; `GET /<slug>/v1/info` lists them.
import { unslugged } from "@/server/http/unslugged";
import { serveChannelRoute } from "./serve-channel-route";

type Params = { slug: string; id: string; path?: string[] };

async function handle(request: Request, context: { params: Promise<Params> }): Promise<Response> {
  const { slug, id, path = [] } = await context.params;
  return serveChannelRoute(request, { slug, channelId: id, path });
}

const methods = { GET: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle };
export const channelHandlers = methods;

const single = unslugged<{ id: string; path?: string[] }>(handle);
export const unsluggedChannelHandlers = { GET: single, POST: single, PUT: single, PATCH: single, DELETE: single };
