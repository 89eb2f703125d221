import { MembersPage } from "@/components/dashboard/members-page";

export default async function Page({ params }: { params: Promise<{ team: string }> }) {
  return <MembersPage teamSlug={(await params).team} />;
}
