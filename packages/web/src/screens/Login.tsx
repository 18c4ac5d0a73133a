import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useLocation } from "wouter";
import { Field } from "../components/ui/Field.tsx";
import { Message } from "../components/ui/Message.tsx";
import { signIn } from "../session/cache.ts";
import { failureText } from "../session/errors.ts";
import { EXPIRY_MESSAGES } from "../session/messages.ts";
import { useOtherSessionsNotice } from "../session/notice.tsx";
import { rememberedUsername, rememberUsername } from "../session/rememberedUsername.ts";
import { useSession } from "../session/useSession.ts";
import { trpc } from "../trpc.ts";

export function Login() {
  const session = useSession();
  const queryClient = useQueryClient();
  const notice = useOtherSessionsNotice();
  const [, navigate] = useLocation();
  const [username, setUsername] = useState(rememberedUsername);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string>();
  const login = trpc.auth.login.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = username.trim();
    if (!name || !password) {
      setError("Please enter both username and password");
      return;
    }
    setError(undefined);
    login.mutate(
      { username: name, password },
      {
        onSuccess: (result) => {
          rememberUsername(name);
          notice.set(result.another_session_logged_out);
          signIn(queryClient, result.user);
          navigate("/", { replace: true });
        },
        onError: (failure) =>
          setError(
            failureText(failure, {
              fallback: "Login failed",
              network: "Network error. Please try again.",
            }),
          ),
      },
    );
  };

  const expiredReason = session.state === "signed-out" ? session.expiredReason : undefined;
  return (
    <main className="login">
      <form className="login__card" onSubmit={submit} noValidate>
        <p className="login__brand">Spreadwatch</p>
        <h1 className="login__title">Commodity Prices Dashboard</h1>
        {expiredReason && <Message tone="info">{EXPIRY_MESSAGES[expiredReason]}</Message>}
        {error && <Message tone="error">{error}</Message>}
        <Field
          label="Username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={username}
          onChange={setUsername}
          autoFocus={!username}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          autoFocus={Boolean(username)}
        />
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={login.isPending}
        >
          {login.isPending ? "Logging in..." : "Login"}
        </button>
      </form>
    </main>
  );
}
