export { sessions } from "./sessions.ts";
export { users } from "./users.ts";
