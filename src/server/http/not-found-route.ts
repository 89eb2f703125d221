// Answers every method on an unknown API path with the JSON 404 of the wire format.
import { AppError } from "@/server/errors";
import { errorResponse } from "./respond";

async function notFound(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  return errorResponse(new AppError("not_found", `No route for ${request.method} ${pathname}.`));
}

export const notFoundHandlers = {
  GET: notFound,
  POST: notFound,
  PUT: notFound,
  PATCH: notFound,
  DELETE: notFound,
  HEAD: notFound,
  OPTIONS: notFound,
};
