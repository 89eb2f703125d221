-- CreateTable
CREATE TABLE "schedule_states" (
    "agentId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "lastDueAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "schedule_states_pkey" PRIMARY KEY ("agentId","name")
);

-- CreateTable
CREATE TABLE "schedule_firings" (
    "id" BIGSERIAL NOT NULL,
    "agentId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "missed" INTEGER NOT NULL DEFAULT 0,
    "manual" BOOLEAN NOT NULL DEFAULT false,
    "sessionId" TEXT NOT NULL,
    "firedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "schedule_firings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "schedule_firings_agentId_name_id_idx" ON "schedule_firings"("agentId", "name", "id");

-- CreateIndex
CREATE UNIQUE INDEX "schedule_firings_agentId_name_dueAt_key" ON "schedule_firings"("agentId", "name", "dueAt");

-- AddForeignKey
ALTER TABLE "schedule_states" ADD CONSTRAINT "schedule_states_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "schedule_firings" ADD CONSTRAINT "schedule_firings_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

