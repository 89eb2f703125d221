-- CreateTable
CREATE TABLE "channel_states" (
    "sessionId" TEXT NOT NULL,
    "state" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "channel_states_pkey" PRIMARY KEY ("sessionId")
);

-- AddForeignKey
ALTER TABLE "channel_states" ADD CONSTRAINT "channel_states_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

