-- CreateTable
CREATE TABLE "turn_steps" (
    "turnId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "result" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "turn_steps_pkey" PRIMARY KEY ("turnId","name")
);

-- CreateIndex
CREATE INDEX "turn_steps_sessionId_idx" ON "turn_steps"("sessionId");

-- AddForeignKey
ALTER TABLE "turn_steps" ADD CONSTRAINT "turn_steps_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

