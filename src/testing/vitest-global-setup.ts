// Vitest global setup: one throwaway Postgres and Restate on free ports in a temporary directory,
// migrated, shared by every integration test, and torn down even when tests fail.
import type {} from "vitest";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "@/cli/start/migrate";
import { startThrowawayStack, type ThrowawayStack } from "@/cli/start/throwaway";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    restateIngressUrl: string;
    restateAdminUrl: string;
    /** The key the test Restate signs its requests with, for workers registered with it. */
    restateIdentityKey: string;
  }
}

let stack: ThrowawayStack | undefined;

export async function setup(project: TestProject): Promise<void> {
  stack = await startThrowawayStack({ withRestate: true });
  await applyMigrations(stack.databaseUrl);
  project.provide("databaseUrl", stack.databaseUrl);
  project.provide("restateIngressUrl", stack.restate!.ingressUrl);
  project.provide("restateAdminUrl", stack.restate!.adminUrl);
  project.provide("restateIdentityKey", stack.restate!.identityKey);
}

export async function teardown(): Promise<void> {
  await stack?.stop();
}
