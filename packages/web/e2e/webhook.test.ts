import { afterAll, describe, expect, it } from "vitest";
import { FakeWebhook, signatureVerifies } from "../../api/test/fakes/fake-webhook.ts";
import { answerNextDialog } from "./dialogs.ts";
import { freshFixture } from "./fixtures.ts";
import { startApp } from "./harness.ts";
import { procedure, recordRequests } from "./requests.ts";
import { signedInSuite } from "./suite.ts";

const FRANK = { username: "frank", password: "frank-secret", alerts_enabled: true };
// The receiver is on loopback, which the server allows only with WEBHOOK_ALLOW_PRIVATE.
const receiver = new FakeWebhook();

const suite = signedInSuite({
  app: async () => {
    await receiver.start();
    return startApp(freshFixture({ WEBHOOK_ALLOW_PRIVATE: "true" }));
  },
  users: [FRANK],
  as: FRANK,
  open: { link: "Profile", path: "/profile" },
});

afterAll(() => receiver.stop());

const section = () => suite.page.getByRole("region", { name: "Webhook" });
const button = (name: string) => section().getByRole("button", { name, exact: true });
const urlField = () => section().getByLabel("Webhook URL", { exact: true });
const secretField = () => section().getByLabel("Secret", { exact: true });
const text = (value: string | RegExp) =>
  typeof value === "string"
    ? section().getByText(value, { exact: true })
    : section().getByText(value);

describe("Webhook on the profile", () => {
  it("starts unset, with test and remove unavailable", async () => {
    await section().locator("[data-webhook='unset']").waitFor();
    expect(await urlField().inputValue()).toBe("");
    expect(await button("Send test").isDisabled()).toBe(true);
    expect(await button("Remove").isDisabled()).toBe(true);
  });

  it("asks for a URL and a long enough secret before sending anything, all at once", async () => {
    const sent = recordRequests(suite.page, procedure("webhook.save"));
    await button("Save").click();
    await text(
      "Please enter the webhook URL. Please enter a secret (or press Generate).",
    ).waitFor();
    await urlField().fill("https://hooks.example.com/hook");
    await secretField().fill("short");
    await button("Save").click();
    await text("The secret must be 16 to 256 characters long.").waitFor();
    await urlField().fill("ftp://hooks.example.com/hook");
    await button("Save").click();
    await text(
      "The webhook URL must start with https://. The secret must be 16 to 256 characters long.",
    ).waitFor();
    expect(sent).toEqual([]);
    // Whether http:// may be used is the server's setting (allowed here): it answers.
    await urlField().fill(receiver.url);
    await button("Save").click();
    await text("The secret must be 16 to 256 characters long.").waitFor();
    expect(sent).toHaveLength(1);
  });

  it("shows the server's refusal of a link-local address inline", async () => {
    await urlField().fill("http://169.254.169.254/latest/meta-data/");
    await secretField().fill("0123456789abcdef0123");
    await button("Save").click();
    await text(/169\.254\.169\.254 is a link-local address/).waitFor();
    await section().locator("[data-webhook='unset']").waitFor();
  });

  it("generates a 64-character secret and saves the webhook", async () => {
    await urlField().fill(receiver.url);
    await button("Generate secret").click();
    const secret = await secretField().inputValue();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await button("Generate secret").click();
    expect(await secretField().inputValue()).not.toBe(secret);
    await button("Save").click();
    await text("Webhook saved.").waitFor();
    await section().locator("[data-webhook='set']").waitFor();
    // What the server stored comes back after a reload.
    const stored = await secretField().inputValue();
    await suite.page.reload();
    await section().locator("[data-webhook='set']").waitFor();
    expect(await urlField().inputValue()).toBe(receiver.url);
    expect(await secretField().inputValue()).toBe(stored);
  });

  it("sends a signed test the receiver gets, and shows its answer", async () => {
    await button("Send test").click();
    await text("Test delivered: your webhook answered HTTP 200.").waitFor();
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(JSON.parse(got?.body ?? "{}")).toMatchObject({ event: "test" });
    const secret = await secretField().inputValue();
    expect(signatureVerifies(secret, got as NonNullable<typeof got>)).toBe(true);

    receiver.answerNext(500);
    await button("Send test").click();
    await text("Test not delivered: The webhook answered HTTP 500.").waitFor();
    expect(receiver.received).toHaveLength(2);
  });

  it("removes the webhook after a confirmation", async () => {
    const dialog = answerNextDialog(suite.page, true);
    await button("Remove").click();
    expect(await dialog).toMatch(/Remove the webhook\?/);
    await text("Webhook removed.").waitFor();
    await section().locator("[data-webhook='unset']").waitFor();
    expect(await urlField().inputValue()).toBe("");
    expect(await button("Send test").isDisabled()).toBe(true);
  });
});
