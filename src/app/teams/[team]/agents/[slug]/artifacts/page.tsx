import { ArtifactsPage } from "@/components/dashboard/artifacts-page";

export default async function Page({ params }: { params: Promise<{ team: string; slug: string }> }) {
  const { team, slug } = await params;
  return <ArtifactsPage teamSlug={team} slug={slug} />;
}
