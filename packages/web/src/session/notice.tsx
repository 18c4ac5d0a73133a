import { createContext, type ReactNode, useContext, useMemo, useState } from "react";

interface OtherSessionsNotice {
  /** The last login ended this user's sessions elsewhere (`another_session_logged_out`). */
  shown: boolean;
  set(shown: boolean): void;
}

const NoticeContext = createContext<OtherSessionsNotice | undefined>(undefined);

/** UI state that outlives the login screen so the dashboard can tell what the login did. */
export function OtherSessionsNoticeProvider({ children }: { children: ReactNode }) {
  const [shown, set] = useState(false);
  const value = useMemo(() => ({ shown, set }), [shown]);
  return <NoticeContext value={value}>{children}</NoticeContext>;
}

export function useOtherSessionsNotice(): OtherSessionsNotice {
  const notice = useContext(NoticeContext);
  if (!notice) throw new Error("useOtherSessionsNotice needs an OtherSessionsNoticeProvider");
  return notice;
}
