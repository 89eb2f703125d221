-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "unattendedApprovals" TEXT NOT NULL DEFAULT 'deny';

-- CreateTable
CREATE TABLE "approvals" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "callId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "args" JSONB NOT NULL,
    "requestedBy" JSONB NOT NULL,
    "awakeableId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "decidedBy" JSONB,
    "reason" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "decidedAt" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approvals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "approvals_status_createdAt_idx" ON "approvals"("status", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "approvals_sessionId_callId_key" ON "approvals"("sessionId", "callId");

-- AddForeignKey
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

