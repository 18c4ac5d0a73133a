import { OTHER_SESSIONS_ENDED } from "../../session/messages.ts";
import { useOtherSessionsNotice } from "../../session/notice.tsx";
import { Message } from "../ui/Message.tsx";

/** After a login that ended this user's other sessions (docs/spec.md §4 "Login success"). */
export function OtherSessionsNotice() {
  const notice = useOtherSessionsNotice();
  if (!notice.shown) return null;
  return (
    <Message tone="success" onDismiss={() => notice.set(false)}>
      {OTHER_SESSIONS_ENDED}
    </Message>
  );
}
