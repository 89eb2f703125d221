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
    "runningInvocationId" TEXT,
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

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "agentSlugs" TEXT[],
    "actions" TEXT[],
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sessions_agentId_ownerKind_ownerId_updatedAt_idx" ON "sessions"("agentId", "ownerKind", "ownerId", "updatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "session_events_sessionId_idempotencyKey_key" ON "session_events"("sessionId", "idempotencyKey");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_teamId_idx" ON "ApiToken"("teamId");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_agentVersionId_fkey" FOREIGN KEY ("agentVersionId") REFERENCES "AgentVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "session_events" ADD CONSTRAINT "session_events_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

