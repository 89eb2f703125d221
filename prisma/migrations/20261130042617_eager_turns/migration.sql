-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "eagerWorker" INTEGER;

-- CreateIndex
CREATE INDEX "sessions_runningTurnId_idx" ON "sessions"("runningTurnId");

