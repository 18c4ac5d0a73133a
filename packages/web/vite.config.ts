import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// In development the API runs separately (`pnpm start` on :3000); in production it serves dist/.
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { "/api": { target: "http://127.0.0.1:3000", changeOrigin: true } },
  },
  build: { outDir: "dist", emptyOutDir: true },
});
