export { sessionEnds } from "./session-ends.ts";
export { sessions } from "./sessions.ts";
export { users } from "./users.ts";
