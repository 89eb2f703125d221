"use client";
// The dashboard's data layer: tRPC over react-query, one client per browser tab.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "@/server/trpc/root";

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

export function DataProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 5_000, retry: (count, error) => count < 2 && !isClientError(error) } },
      }),
  );
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: "/api/trpc" })] }));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}

function isClientError(error: unknown): boolean {
  const status = (error as { data?: { httpStatus?: number } }).data?.httpStatus;
  return status !== undefined && status < 500;
}

/** The message to show for a failed call: the server's words, which say what to do. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : "something went wrong; try again";
}
