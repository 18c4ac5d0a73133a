import type { ReactNode } from "react";
import { Link } from "wouter";
import { AppHeader } from "../app/AppHeader.tsx";
import { AdminNav } from "./AdminNav.tsx";

/** An Admin Panel screen: the header, the Admin tabs (Users, Instruments, Data), then `children`. */
export function AdminPage({ children }: { children: ReactNode }) {
  return (
    <div className="page">
      <AppHeader title="Admin Panel">
        <Link href="/">Back to Dashboard</Link>
      </AppHeader>
      <main className="screen">
        <AdminNav />
        {children}
      </main>
    </div>
  );
}
