-- CreateTable
CREATE TABLE "agent_secrets" (
    "agentId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "iv" BYTEA NOT NULL,
    "tag" BYTEA NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedBy" TEXT,

    CONSTRAINT "agent_secrets_pkey" PRIMARY KEY ("agentId","name")
);

-- AddForeignKey
ALTER TABLE "agent_secrets" ADD CONSTRAINT "agent_secrets_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

