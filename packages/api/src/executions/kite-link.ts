import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { Store } from "@spreadwatch/db";
import type { KiteSession } from "../feeds/providers/kite/session.ts";

/**
 * A trader's own Kite session (Profile → Connect Kite), not the admin's market-data login. The
 * access token is encrypted at rest with a key derived from the app's session secret
 * (AES-256-GCM), so a copy of the database alone does not place orders.
 */
export interface KiteLink {
  kiteUserId: string;
  savedAt: number;
  expiresAt: number;
}

interface StoredLink extends KiteLink {
  iv: string;
  tag: string;
  token: string;
}

const keyOf = (userId: number) => `kite.link.${userId}`;

function cipherKey(secret: string): Buffer {
  return createHash("sha256").update(`spreadwatch kite link\n${secret}`).digest();
}

export class KiteLinks {
  constructor(
    private readonly store: Pick<Store, "keyValues">,
    private readonly secret: string,
  ) {}

  async save(userId: number, session: KiteSession): Promise<KiteLink> {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", cipherKey(this.secret), iv);
    const token = Buffer.concat([cipher.update(session.accessToken, "utf8"), cipher.final()]);
    const link: StoredLink = {
      kiteUserId: session.userId,
      savedAt: session.savedAt,
      expiresAt: session.expiresAt,
      iv: iv.toString("base64"),
      tag: cipher.getAuthTag().toString("base64"),
      token: token.toString("base64"),
    };
    await this.store.keyValues.set(keyOf(userId), link, session.savedAt);
    return { kiteUserId: link.kiteUserId, savedAt: link.savedAt, expiresAt: link.expiresAt };
  }

  /** What the trader sees: whose Kite, since when, until when; undefined when not linked. */
  async view(userId: number): Promise<KiteLink | undefined> {
    const link = await this.store.keyValues.get<StoredLink>(keyOf(userId));
    return (
      link && { kiteUserId: link.kiteUserId, savedAt: link.savedAt, expiresAt: link.expiresAt }
    );
  }

  /** The access token while the session lasts; undefined when unlinked, expired or unreadable. */
  async accessToken(userId: number, now: number): Promise<string | undefined> {
    const link = await this.store.keyValues.get<StoredLink>(keyOf(userId));
    if (!link || link.expiresAt <= now) return undefined;
    try {
      const decipher = createDecipheriv(
        "aes-256-gcm",
        cipherKey(this.secret),
        Buffer.from(link.iv, "base64"),
      );
      decipher.setAuthTag(Buffer.from(link.tag, "base64"));
      const plain = Buffer.concat([
        decipher.update(Buffer.from(link.token, "base64")),
        decipher.final(),
      ]);
      return plain.toString("utf8");
    } catch {
      // Another secret (SESSION_SECRET changed) or a damaged row: the trader links again.
      return undefined;
    }
  }

  async revoke(userId: number): Promise<boolean> {
    return this.store.keyValues.delete(keyOf(userId));
  }
}
