export {
  type Database,
  type DatabaseHandle,
  isUniqueViolation,
  openDatabase,
} from "./connection.ts";
export {
  createSession,
  deleteSession,
  deleteSessionsIdleSince,
  deleteUserSessions,
  findSession,
  findSessionEnd,
  pruneSessionEnds,
  type Session,
  type SessionEnd,
  type SessionEndReason,
  touchSession,
} from "./sessions.ts";
export {
  countUsers,
  createUser,
  deleteUser,
  findUserById,
  findUserByUsername,
  listUsers,
  type NewUser,
  setPasswordHash,
  setUserPermission,
  type User,
  type UserPermission,
  type UserSummary,
} from "./users.ts";
