import { AgentPage } from "@/components/dashboard/agent-page";

export default async function Page({ params }: { params: Promise<{ team: string; slug: string }> }) {
  const { team, slug } = await params;
  return <AgentPage teamSlug={team} slug={slug} />;
}
