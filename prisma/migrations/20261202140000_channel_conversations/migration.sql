-- CreateTable
CREATE TABLE "channel_conversations" (
    "agentId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "channel_conversations_pkey" PRIMARY KEY ("agentId","channelId","keyHash")
);

-- CreateIndex
CREATE UNIQUE INDEX "channel_conversations_sessionId_key" ON "channel_conversations"("sessionId");

-- AddForeignKey
ALTER TABLE "channel_conversations" ADD CONSTRAINT "channel_conversations_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channel_conversations" ADD CONSTRAINT "channel_conversations_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

