// ANY /<slug>/v1/* — unknown per-agent API paths answer a JSON 404
import { notFoundHandlers } from "@/server/http/not-found-route";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = notFoundHandlers;
