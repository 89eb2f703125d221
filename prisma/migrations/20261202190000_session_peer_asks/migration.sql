-- CreateTable
CREATE TABLE "session_peer_asks" (
    "sessionId" TEXT NOT NULL,
    "fromSessionId" TEXT NOT NULL,
    "fromAgentId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_peer_asks_pkey" PRIMARY KEY ("sessionId")
);

-- AddForeignKey
ALTER TABLE "session_peer_asks" ADD CONSTRAINT "session_peer_asks_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
