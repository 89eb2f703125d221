import { AgentsPage } from "@/components/dashboard/agents-page";

export default async function Page({ params }: { params: Promise<{ team: string }> }) {
  return <AgentsPage teamSlug={(await params).team} />;
}
