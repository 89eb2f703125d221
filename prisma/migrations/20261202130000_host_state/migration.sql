-- CreateTable
CREATE TABLE "agent_kv" (
    "agentId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_kv_pkey" PRIMARY KEY ("agentId","key")
);

-- CreateTable
CREATE TABLE "agent_files" (
    "agentId" TEXT NOT NULL,
    "scopeKey" TEXT NOT NULL,
    "sessionId" TEXT,
    "path" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "size" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_files_pkey" PRIMARY KEY ("agentId","scopeKey","path")
);

-- CreateTable
CREATE TABLE "hook_cursors" (
    "sessionId" TEXT NOT NULL,
    "deliveredIndex" INTEGER NOT NULL DEFAULT -1,
    "owner" TEXT,
    "leaseUntil" TIMESTAMP(3),

    CONSTRAINT "hook_cursors_pkey" PRIMARY KEY ("sessionId")
);

-- CreateIndex
CREATE INDEX "agent_files_sessionId_idx" ON "agent_files"("sessionId");

-- AddForeignKey
ALTER TABLE "agent_kv" ADD CONSTRAINT "agent_kv_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_files" ADD CONSTRAINT "agent_files_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_files" ADD CONSTRAINT "agent_files_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hook_cursors" ADD CONSTRAINT "hook_cursors_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A file row is in deployment scope ("") or in its session's: never a scope key that disagrees
-- with its session. Prisma's schema cannot declare a check constraint, so it lives here only.
ALTER TABLE "agent_files" ADD CONSTRAINT "agent_files_scopeKey_check" CHECK ("scopeKey" = COALESCE("sessionId", ''));

-- Sessions that existed before hooks were delivered start at their last event, so hooks are
-- never handed events from before this migration.
INSERT INTO "hook_cursors" ("sessionId", "deliveredIndex") SELECT "id", "nextIndex" - 1 FROM "sessions";
