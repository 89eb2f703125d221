// GET /v1/openapi.json — this API's OpenAPI 3.1 document
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/v1/openapi.json");
