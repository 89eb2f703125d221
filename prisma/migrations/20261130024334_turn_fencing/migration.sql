-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "turnEpoch" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "turn_stops" (
    "turnId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "turn_stops_pkey" PRIMARY KEY ("turnId")
);

-- CreateIndex
CREATE INDEX "turn_stops_sessionId_idx" ON "turn_stops"("sessionId");

-- AddForeignKey
ALTER TABLE "turn_stops" ADD CONSTRAINT "turn_stops_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

