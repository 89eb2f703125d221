// The one Prisma client of a process, on the pg driver adapter (no native query engine).
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { env } from "@/env";
import { AppError } from "@/server/http/app-error";

let client: PrismaClient | undefined;

export function createDb(databaseUrl: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
}

export function db(): PrismaClient {
  if (!client) {
    const url = env().DATABASE_URL;
    if (!url) throw new AppError("unavailable", "DATABASE_URL is not set; start Agentfold with `npm start`.");
    client = createDb(url);
  }
  return client;
}
