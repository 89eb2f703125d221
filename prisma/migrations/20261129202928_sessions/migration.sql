-- CreateEnum
CREATE TYPE "SessionMode" AS ENUM ('chat', 'task');

-- CreateEnum
CREATE TYPE "SessionPurpose" AS ENUM ('live', 'eval');

-- CreateEnum
CREATE TYPE "SessionStatus" AS ENUM ('idle', 'running', 'waiting', 'completed', 'failed');

-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "agentVersionId" TEXT NOT NULL,
    "ownerKind" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL DEFAULT 'http',
    "mode" "SessionMode" NOT NULL DEFAULT 'chat',
    "purpose" "SessionPurpose" NOT NULL DEFAULT 'live',
    "status" "SessionStatus" NOT NULL DEFAULT 'idle',
    "title" TEXT,
    "dryRun" BOOLEAN NOT NULL DEFAULT false,
    "continuationTokenHash" TEXT,
    "nextIndex" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session_events" (
    "sessionId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "turnId" TEXT,
    "at" TIMESTAMP(3) NOT NULL,
    "data" JSONB NOT NULL,
    "idempotencyKey" TEXT,

    CONSTRAINT "session_events_pkey" PRIMARY KEY ("sessionId","index")
);

-- CreateIndex
CREATE INDEX "sessions_agentId_ownerKind_ownerId_updatedAt_idx" ON "sessions"("agentId", "ownerKind", "ownerId", "updatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "session_events_sessionId_idempotencyKey_key" ON "session_events"("sessionId", "idempotencyKey");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_agentVersionId_fkey" FOREIGN KEY ("agentVersionId") REFERENCES "AgentVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "session_events" ADD CONSTRAINT "session_events_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

