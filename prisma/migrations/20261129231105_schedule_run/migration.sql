-- AlterTable
ALTER TABLE "schedule_firings" ALTER COLUMN "sessionId" DROP NOT NULL;

