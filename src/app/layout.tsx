import type { Metadata } from "next";
import type { ReactNode } from "react";
import { DataProvider } from "@/components/trpc/provider";
import "./globals.css";

export const metadata: Metadata = {
  title: "Agentfold",
  description: "Run agents defined as folders of Markdown and TypeScript.",
  icons: { icon: "/favicon.svg" },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <DataProvider>{children}</DataProvider>
      </body>
    </html>
  );
}
