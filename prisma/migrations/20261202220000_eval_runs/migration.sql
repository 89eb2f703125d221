-- CreateTable
CREATE TABLE "eval_runs" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "startedBy" TEXT NOT NULL,
    "ownerKind" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "selection" JSONB NOT NULL,
    "maxConcurrency" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "eval_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "eval_results" (
    "runId" TEXT NOT NULL,
    "caseId" TEXT NOT NULL,
    "iteration" INTEGER NOT NULL,
    "evalFile" TEXT NOT NULL,
    "evalIndex" INTEGER,
    "timeoutMs" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "assertions" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "sessionIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "eval_results_pkey" PRIMARY KEY ("runId","caseId","iteration")
);

-- CreateIndex
CREATE INDEX "eval_runs_agentId_createdAt_idx" ON "eval_runs"("agentId", "createdAt");

-- CreateIndex
CREATE INDEX "eval_results_status_leaseUntil_idx" ON "eval_results"("status", "leaseUntil");

-- AddForeignKey
ALTER TABLE "eval_runs" ADD CONSTRAINT "eval_runs_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "eval_results" ADD CONSTRAINT "eval_results_runId_fkey" FOREIGN KEY ("runId") REFERENCES "eval_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

