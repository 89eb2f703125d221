-- CreateTable
CREATE TABLE "cli_logins" (
    "id" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "approvedById" TEXT,
    "teamId" TEXT,
    "actions" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "approvedAt" TIMESTAMP(3),
    "deniedAt" TIMESTAMP(3),
    "collectedAt" TIMESTAMP(3),

    CONSTRAINT "cli_logins_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "cli_logins_secretHash_key" ON "cli_logins"("secretHash");

-- CreateIndex
CREATE UNIQUE INDEX "cli_logins_code_key" ON "cli_logins"("code");

-- CreateIndex
CREATE INDEX "cli_logins_expiresAt_idx" ON "cli_logins"("expiresAt");

