import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Server-only packages with native or runtime-resolved pieces stay out of the bundle.
  serverExternalPackages: ["@prisma/client", "@prisma/adapter-pg", "pg", "esbuild"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
