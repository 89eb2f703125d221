-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "runningTurnId" TEXT;

-- CreateTable
CREATE TABLE "pending_deliveries" (
    "id" BIGSERIAL NOT NULL,
    "sessionId" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "workspaceFiles" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pending_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "pending_deliveries_sessionId_id_idx" ON "pending_deliveries"("sessionId", "id");

-- AddForeignKey
ALTER TABLE "pending_deliveries" ADD CONSTRAINT "pending_deliveries_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

