-- CreateTable
CREATE TABLE "artifacts" (
    "agentId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "title" TEXT,
    "data" JSONB NOT NULL,
    "sessionId" TEXT,
    "turnId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "artifacts_pkey" PRIMARY KEY ("agentId","kind","key")
);

-- CreateIndex
CREATE INDEX "artifacts_agentId_updatedAt_idx" ON "artifacts"("agentId", "updatedAt");

-- AddForeignKey
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

