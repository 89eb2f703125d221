-- CreateTable
CREATE TABLE "mcp_authorizations" (
    "agentId" TEXT NOT NULL,
    "connection" TEXT NOT NULL,
    "serverUrl" TEXT NOT NULL,
    "iv" BYTEA NOT NULL,
    "tag" BYTEA NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "state" TEXT,
    "connectedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mcp_authorizations_pkey" PRIMARY KEY ("agentId","connection")
);

-- CreateIndex
CREATE UNIQUE INDEX "mcp_authorizations_state_key" ON "mcp_authorizations"("state");

-- AddForeignKey
ALTER TABLE "mcp_authorizations" ADD CONSTRAINT "mcp_authorizations_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;
