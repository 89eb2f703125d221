-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "allowAnonymous" BOOLEAN NOT NULL DEFAULT false;

