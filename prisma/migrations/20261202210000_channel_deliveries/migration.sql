-- CreateTable
CREATE TABLE "channel_deliveries" (
    "agentId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "channel_deliveries_pkey" PRIMARY KEY ("agentId","channelId","deliveryId")
);

-- CreateIndex
CREATE INDEX "channel_deliveries_receivedAt_idx" ON "channel_deliveries"("receivedAt");

-- AddForeignKey
ALTER TABLE "channel_deliveries" ADD CONSTRAINT "channel_deliveries_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

