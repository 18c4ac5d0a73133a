import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "./scripts/precompress.ts";

// In development the API runs separately (`pnpm start` on :3000); in production it serves dist/.
export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    // The browser's Host passes through, so the server's same-origin check for writes holds in dev too.
    proxy: { "/api": { target: "http://127.0.0.1:3000", changeOrigin: false } },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Every browser the app supports preloads modules itself (Safari since 17): the polyfill
    // would only add to the entry (docs/decisions.md "What the first load carries").
    modulePreload: { polyfill: false },
  },
});
