import { ApprovalsPage } from "@/components/dashboard/approvals-page";

export default async function Page({ params }: { params: Promise<{ team: string }> }) {
  return <ApprovalsPage teamSlug={(await params).team} />;
}
