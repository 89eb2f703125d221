// Prisma CLI configuration. The CLI runs outside the app, so this file reads DATABASE_URL
// directly; the supervisor and the migration script always set it before calling the CLI.
import { defineConfig } from "prisma/config";
import { PrismaPg } from "adapter-pg-7";

export default defineConfig({
  schema: "prisma/schema.prisma",
  engine: "js",
  experimental: { adapter: true },
  // The 7.x adapter: 6.x cannot read the `name` columns the schema engine introspects.
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
});
