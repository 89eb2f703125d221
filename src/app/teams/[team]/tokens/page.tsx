import { TokensPage } from "@/components/dashboard/tokens-page";

export default async function Page({ params }: { params: Promise<{ team: string }> }) {
  return <TokensPage teamSlug={(await params).team} />;
}
