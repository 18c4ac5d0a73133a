import { Link } from "wouter";
import { AppHeader } from "../components/app/AppHeader.tsx";

export function NotFound() {
  return (
    <div className="page">
      <AppHeader />
      <main className="not-found">
        <p>This page does not exist.</p>
        <Link href="/">Back to Dashboard</Link>
      </main>
    </div>
  );
}
