-- AlterTable
ALTER TABLE "artifacts" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateTable
CREATE TABLE "agent_logs" (
    "id" BIGSERIAL NOT NULL,
    "agentId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "level" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "name" TEXT,
    "sessionId" TEXT,
    "turnId" TEXT,
    "message" TEXT NOT NULL,

    CONSTRAINT "agent_logs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "agent_logs_agentId_id_idx" ON "agent_logs"("agentId", "id");

-- CreateIndex
CREATE INDEX "agent_logs_at_idx" ON "agent_logs"("at");

-- CreateIndex
CREATE INDEX "artifacts_agentId_seq_idx" ON "artifacts"("agentId", "seq");

-- AddForeignKey
ALTER TABLE "agent_logs" ADD CONSTRAINT "agent_logs_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

