-- CreateTable
CREATE TABLE "turn_admissions" (
    "id" BIGSERIAL NOT NULL,
    "turnId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "awakeableId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "turn_admissions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "turn_admissions_turnId_key" ON "turn_admissions"("turnId");

-- CreateIndex
CREATE INDEX "turn_admissions_agentId_state_id_idx" ON "turn_admissions"("agentId", "state", "id");

-- AddForeignKey
ALTER TABLE "turn_admissions" ADD CONSTRAINT "turn_admissions_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

